package program

import (
	"fmt"
	"strings"
)

// Error is a problem in a program, at a line and column (both from 1), in words a student
// understands: "line 4, column 12: `pw` is not defined — did you mean `pwd`?".
type Error struct {
	Line, Column int
	Message      string
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Message)
}

// ErrorFields gives the position as fields of the error object that the JavaScript API throws
// (error.line, error.column).
func (e *Error) ErrorFields() map[string]any {
	return map[string]any{"line": e.Line, "column": e.Column}
}

func errAt(p Pos, format string, args ...any) *Error {
	return &Error{Line: p.Line, Column: p.Column, Message: fmt.Sprintf(format, args...)}
}

// ErrorList is every problem Check found, in source order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// suggest returns " — did you mean `c`?" for the candidate closest to name by edit distance when
// it is close enough to be a likely typo, and "" otherwise.
func suggest(name string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if c == name {
			continue
		}
		if d := editDistance(name, c); d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	limit := len([]rune(name)) / 3
	if limit < 1 {
		limit = 1
	}
	if best == "" || bestD > limit && !strings.EqualFold(best, name) {
		return ""
	}
	return " — did you mean `" + best + "`?"
}

// editDistance is the Levenshtein distance between a and b (insertions, deletions and
// substitutions of characters).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur := make([]int, len(y)+1)
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			sub := prev[j-1]
			if x[i-1] != y[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev = cur
	}
	return prev[len(y)]
}
