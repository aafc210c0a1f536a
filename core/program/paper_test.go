package program_test

import (
	"encoding/json"
	"math/big"
	"math/bits"
	"os"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/program"
)

// examples reads the examples the page and the docs share (web/program-examples.json).
func examples(t testing.TB) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("../../web/program-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Examples []struct{ ID, Program string }
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range f.Examples {
		out[e.ID] = e.Program
	}
	return out
}

func run(t *testing.T, src string) *program.Result {
	t.Helper()
	res, err := program.Channel(src, program.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return res
}

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

// expectTable compares a result with a table typed from a paper: labels in order and every
// entry as a fraction.
func expectTable(t *testing.T, res *program.Result, rows, cols []string, table [][]string) {
	t.Helper()
	if strings.Join(res.Secrets, "|") != strings.Join(rows, "|") {
		t.Fatalf("rows %q, want %q", res.Secrets, rows)
	}
	if strings.Join(res.Observations, "|") != strings.Join(cols, "|") {
		t.Fatalf("columns %q, want %q", res.Observations, cols)
	}
	for i := range table {
		for j, want := range table[i] {
			if got := res.Channel[i][j]; got.Cmp(rat(want)) != 0 {
				t.Errorf("C[%s][%s] = %s, want %s", rows[i], cols[j], got.RatString(), want)
			}
		}
	}
}

var bits3 = []string{"[0, 0, 0]", "[0, 0, 1]", "[0, 1, 0]", "[0, 1, 1]", "[1, 0, 0]", "[1, 0, 1]", "[1, 1, 0]", "[1, 1, 1]"}

// Table 2(a) of Alvim, Andrés, Chatzikokolakis, Palamidessi (FOSAD 2011): rows 000 … 111.
func TestPasswordTable2a(t *testing.T) {
	res := run(t, examples(t)["password"])
	expectTable(t, res, bits3, []string{"Fail", "OK"}, [][]string{
		{"1", "0"}, {"1", "0"}, {"1", "0"}, {"1", "0"}, {"1", "0"}, {"1", "0"}, {"0", "1"}, {"1", "0"},
	})
	for _, p := range res.Prior {
		if p.Cmp(big.NewRat(1, 8)) != 0 {
			t.Fatalf("prior %v, want uniform 1/8", res.Prior)
		}
	}
}

// Table 2(b): the paper prints the columns (Fail, 1) (Fail, 2) (Fail, 3) OK; the program meets
// OK (row 110) before (Fail, 3) (row 111), so the columns come in that order, entries alike.
func TestPasswordTable2b(t *testing.T) {
	res := run(t, examples(t)["password-timing"])
	expectTable(t, res, bits3, []string{"(Fail, 1)", "(Fail, 2)", "OK", "(Fail, 3)"}, [][]string{
		// (Fail,1) (Fail,2) OK (Fail,3) — the paper's rows, with its last two columns swapped
		{"1", "0", "0", "0"}, {"1", "0", "0", "0"}, {"1", "0", "0", "0"}, {"1", "0", "0", "0"},
		{"0", "1", "0", "0"}, {"0", "1", "0", "0"}, {"0", "0", "1", "0"}, {"0", "0", "0", "1"},
	})
}

var dcRows = []string{"(a, 1)", "(b, 1)", "(a, 0)", "(b, 0)"}
var dcCols = []string{"10", "01", "00", "11"}

// Table 3(a): the two-node DC-net with fair coins.
func TestDCNetTable3a(t *testing.T) {
	expectTable(t, run(t, examples(t)["dcnet-fair"]), dcRows, dcCols, [][]string{
		{"1/2", "1/2", "0", "0"}, {"1/2", "1/2", "0", "0"}, {"0", "0", "1/2", "1/2"}, {"0", "0", "1/2", "1/2"},
	})
}

// Table 3(b): coins giving 0 with probability 2/3.
func TestDCNetTable3b(t *testing.T) {
	expectTable(t, run(t, examples(t)["dcnet-biased"]), dcRows, dcCols, [][]string{
		{"2/3", "1/3", "0", "0"}, {"1/3", "2/3", "0", "0"}, {"0", "0", "2/3", "1/3"}, {"0", "0", "2/3", "1/3"},
	})
}

// cellOf returns C[row][col] by labels (0 when the column does not exist).
func cellOf(res *program.Result, row, col string) *big.Rat {
	for i, r := range res.Secrets {
		if r != row {
			continue
		}
		for j, c := range res.Observations {
			if c == col {
				return res.Channel[i][j]
			}
		}
		return new(big.Rat)
	}
	panic("no row " + row)
}

func checkRowsSumToOne(t *testing.T, res *program.Result) {
	t.Helper()
	for i, row := range res.Channel {
		s := new(big.Rat)
		for _, p := range row {
			s.Add(s, p)
		}
		if s.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("row %s sums to %s", res.Secrets[i], s.RatString())
		}
	}
}

// Dining cryptographers: when one cryptographer pays, the three announcements have odd parity
// and each of the 4 odd strings has probability 1/4 (the coins are uniform and the map from
// coins to announcements is 2-to-1 onto that coset); when nobody pays, the same on the even
// strings.
func TestDiningCryptographers(t *testing.T) {
	res := run(t, examples(t)["dining-cryptographers"])
	checkRowsSumToOne(t, res)
	for _, payer := range []string{"A", "B", "C", "nobody"} {
		for s := 0; s < 8; s++ {
			col := ""
			for k := 2; k >= 0; k-- {
				col += string(rune('0' + (s>>k)&1))
			}
			want := new(big.Rat)
			if odd := bits.OnesCount(uint(s))%2 == 1; odd == (payer != "nobody") {
				want = big.NewRat(1, 4)
			}
			if got := cellOf(res, payer, col); got.Cmp(want) != 0 {
				t.Errorf("C[%s][%s] = %s, want %s", payer, col, got.RatString(), want.RatString())
			}
		}
	}
}

// Monty Hall, contestant on door 1: the host opens 2 or 3 at random when the car is behind 1,
// otherwise the one door that is neither.
func TestMontyHall(t *testing.T) {
	expectTable(t, run(t, examples(t)["monty-hall"]), []string{"1", "2", "3"}, []string{"2", "3"}, [][]string{
		{"1/2", "1/2"}, {"0", "1"}, {"1", "0"},
	})
}

// Square-and-multiply: the time is 4 squarings plus one multiplication per 1-bit of the key.
func TestSquareAndMultiply(t *testing.T) {
	res := run(t, examples(t)["square-and-multiply"])
	checkRowsSumToOne(t, res)
	for key := 0; key < 16; key++ {
		want := 4 + bits.OnesCount(uint(key))
		if got := cellOf(res, itoa(key), itoa(want)); got.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("key %d: P(time %d) = %s, want 1", key, want, got.RatString())
		}
	}
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// Election: the tally is the number of 1 votes.
func TestElection(t *testing.T) {
	res := run(t, examples(t)["election"])
	for i, row := range bits3 {
		n := strings.Count(row, "1")
		if got := cellOf(res, row, itoa(n)); got.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("row %d %s: P(tally %d) = %s", i, row, n, got.RatString())
		}
	}
	if len(res.Observations) != 4 {
		t.Errorf("columns %q, want the tallies 0..3", res.Observations)
	}
}

// Warner's randomized response with a fair coin: the truth with probability 1/2 + 1/2·1/2 = 3/4;
// the prior is the declared one, exactly 3/10 and 7/10.
func TestRandomizedResponse(t *testing.T) {
	res := run(t, examples(t)["randomized-response"])
	expectTable(t, res, []string{"yes", "no"}, []string{"yes", "no"}, [][]string{{"3/4", "1/4"}, {"1/4", "3/4"}})
	if res.Prior[0].Cmp(big.NewRat(3, 10)) != 0 || res.Prior[1].Cmp(big.NewRat(7, 10)) != 0 {
		t.Errorf("prior %v, want 3/10 7/10", res.Prior)
	}
}

// 60 merged coin flips: the counter is Binomial(60, 1/2), 61 states, and the secret bit
// shifts it.
func TestSixtyFlipsMerge(t *testing.T) {
	res := run(t, examples(t)["coin-flips"])
	if res.States != 61 {
		t.Errorf("states %d, want 61", res.States)
	}
	two60 := new(big.Int).Lsh(big.NewInt(1), 60)
	for x := 0; x <= 1; x++ {
		for k := 0; k <= 60; k++ {
			want := new(big.Rat).SetFrac(new(big.Int).Binomial(60, int64(k)), two60)
			if got := cellOf(res, itoa(x), itoa(k+x)); got.Cmp(want) != 0 {
				t.Fatalf("P(%d | x=%d) = %s, want %s", k+x, x, got.RatString(), want.RatString())
			}
		}
	}
}

// A run that ends in many states (100, two per observation): each column sums the states that
// observed it, 2/100.
func TestManyFinalStates(t *testing.T) {
	res := run(t, "secret x in 0..1\nv = uniform(0..99)\nobserve (v + x) % 50")
	if len(res.Observations) != 50 {
		t.Fatalf("%d columns", len(res.Observations))
	}
	for i := range res.Channel {
		for j, p := range res.Channel[i] {
			if p.Cmp(big.NewRat(1, 50)) != 0 {
				t.Fatalf("C[%d][%s] = %s, want 1/50", i, res.Observations[j], p.RatString())
			}
		}
	}
}
