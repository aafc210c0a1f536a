package argerr

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a fault in one argument. Its message is "Arg: " + the position + Detail, the same
// text the toolkit always wrote ("channel: row 2 sums to 0.9, expected 1"), so wrapping code and
// readers of the message see no change.
type Error struct {
	// Arg names the argument as the message does ("channel", "prior", "epsilon", "graph.edges").
	Arg string
	// Index is where in the argument: nil for the argument as a whole, [i] for row i of a matrix
	// or entry i of a vector (Noun says which), [i, j] for the entry in row i and column j.
	// Indices count from 0.
	Index []int
	// Noun names Index[0] when Index has one element: "row" (the default) or "entry", or another
	// word for what is counted ("edge").
	Noun string
	// Detail says what is wrong, without the argument and the position ("sums to 0.9, expected 1").
	Detail string
}

// Error is "Arg: position Detail" — position being "row i", "entry i" or "entry [i][j]", and
// no space before a Detail that starts with ':' or ',' ("prior: entry 2: not a fraction").
func (e *Error) Error() string {
	pos := e.Position()
	if pos == "" || strings.HasPrefix(e.Detail, ":") || strings.HasPrefix(e.Detail, ",") {
		return e.Arg + ": " + pos + e.Detail
	}
	return e.Arg + ": " + pos + " " + e.Detail
}

// Position is the position as the message writes it ("row 2", "entry [0][3]"; "" for the whole
// argument).
func (e *Error) Position() string {
	switch len(e.Index) {
	case 1:
		noun := e.Noun
		if noun == "" {
			noun = "row"
		}
		return noun + " " + strconv.Itoa(e.Index[0])
	case 2:
		return "entry [" + strconv.Itoa(e.Index[0]) + "][" + strconv.Itoa(e.Index[1]) + "]"
	}
	return ""
}

// New is an error about the argument as a whole: "arg: detail".
func New(arg, format string, a ...any) *Error {
	return &Error{Arg: arg, Detail: fmt.Sprintf(format, a...)}
}

// Row is an error about row i of a matrix argument: "arg: row i detail".
func Row(arg string, i int, format string, a ...any) *Error {
	return &Error{Arg: arg, Index: []int{i}, Detail: fmt.Sprintf(format, a...)}
}

// Entry is an error about entry i of a vector argument: "arg: entry i detail".
func Entry(arg string, i int, format string, a ...any) *Error {
	return &Error{Arg: arg, Index: []int{i}, Noun: "entry", Detail: fmt.Sprintf(format, a...)}
}

// Item is an error about the i-th item of an argument counted by noun: "arg: noun i detail"
// ("graph: edge 3 (2,2) is a self-loop").
func Item(arg, noun string, i int, format string, a ...any) *Error {
	return &Error{Arg: arg, Index: []int{i}, Noun: noun, Detail: fmt.Sprintf(format, a...)}
}

// Cell is an error about the entry in row i and column j of a matrix argument:
// "arg: entry [i][j] detail".
func Cell(arg string, i, j int, format string, a ...any) *Error {
	return &Error{Arg: arg, Index: []int{i, j}, Detail: fmt.Sprintf(format, a...)}
}

// Rename returns err with the argument called name when err is an *Error about the argument
// called from, for callers that validate under one name and document another; other errors are
// returned as they are.
func Rename(err error, from, name string) error {
	if e, ok := err.(*Error); ok && e.Arg == from {
		c := *e
		c.Arg = name
		return &c
	}
	return err
}
