// Package argerr is the error type of every validation in core/ that finds fault with one
// argument: the argument's name and, where the fault is in one row, entry or cell, its position,
// as data. A caller reaches it with errors.As through any wrapping (the JavaScript bindings
// prefix the function's name with %w and hand Arg and Index to JavaScript as error.argument and
// error.index), so nobody has to parse the message to learn which argument, row or cell is wrong
// — like encoding/json's UnmarshalTypeError with its Field.
package argerr
