package program_test

import (
	"fmt"

	"github.com/qif-toolkit/qif/core/program"
)

// The two-node DC-net of Alvim et al. (FOSAD 2011), Example 5, with a coin biased towards 0:
// the program gives their Table 3(b), rows, columns and entries.
func Example() {
	res, err := program.Channel(`
secret s in [("a", 1), ("b", 1), ("a", 0), ("b", 0)]
coin = choose {0: 2/3, 1: 1/3}
if s[0] == "a" {
    observe str(coin xor s[1]) + str(coin)
} else {
    observe str(coin) + str(coin xor s[1])
}`, program.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Observations)
	for i, row := range res.Channel {
		fmt.Print(res.Secrets[i])
		for _, p := range row {
			fmt.Print(" ", p.RatString())
		}
		fmt.Println()
	}
	// Output:
	// [10 01 00 11]
	// (a, 1) 2/3 1/3 0 0
	// (b, 1) 1/3 2/3 0 0
	// (a, 0) 0 0 2/3 1/3
	// (b, 0) 0 0 2/3 1/3
}

// Errors name their line and column, and suggest a name close to an undefined one.
func ExampleCheck() {
	for _, d := range program.Check("secret pwd in 0..7\nguess = 3\nobserve guess == pw") {
		fmt.Println(d)
	}
	// Output:
	// line 3, column 18: `pw` is not defined — did you mean `pwd`?
}
