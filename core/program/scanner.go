package program

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Pos is a position in the source: Line and Column count from 1; a column counts characters
// (Unicode code points), so that an editor can mark it.
type Pos struct{ Line, Column int }

// token is a lexical token kind.
type token uint8

const (
	tEOF token = iota
	tNewline
	tIdent
	tInt     // digits
	tDecimal // digits '.' digits
	tString
	tKeyword // lit holds the keyword
	tOp      // lit holds the operator or punctuation
	tIllegal // lit holds the message
)

var keywords = map[string]bool{
	"secret": true, "in": true, "if": true, "else": true, "while": true, "for": true, "observe": true,
	"and": true, "or": true, "not": true, "xor": true, "true": true, "false": true, "choose": true,
}

// item is one scanned token with its position and text (a string's text is its value).
type item struct {
	tok token
	lit string
	pos Pos
}

// scanner turns source text into items. Newlines are tokens (they end statements) except inside
// parentheses and brackets, where an expression may span lines.
type scanner struct {
	src   string
	off   int
	line  int
	col   int
	depth int // open ( and [
}

func newScanner(src string) *scanner { return &scanner{src: src, line: 1, col: 1} }

func (s *scanner) peekRune() rune {
	if s.off >= len(s.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(s.src[s.off:])
	return r
}

func (s *scanner) next() rune {
	r, w := utf8.DecodeRuneInString(s.src[s.off:])
	s.off += w
	if r == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return r
}

// scan returns the next item.
func (s *scanner) scan() item {
	for {
		r := s.peekRune()
		switch {
		case r == '#':
			for s.peekRune() != '\n' && s.peekRune() != -1 {
				s.next()
			}
			continue
		case r == '\n':
			pos := Pos{s.line, s.col}
			s.next()
			if s.depth > 0 {
				continue
			}
			return item{tNewline, "\n", pos}
		case r == ' ' || r == '\t' || r == '\r':
			s.next()
			continue
		}
		break
	}
	pos := Pos{s.line, s.col}
	r := s.peekRune()
	if r == -1 {
		return item{tEOF, "", pos}
	}
	start := s.off
	switch {
	case nameStart(r):
		for r := s.peekRune(); nameStart(r) || r >= '0' && r <= '9'; r = s.peekRune() {
			s.next()
		}
		word := s.src[start:s.off]
		if keywords[word] {
			return item{tKeyword, word, pos}
		}
		return item{tIdent, word, pos}
	case r >= '0' && r <= '9':
		for r := s.peekRune(); r >= '0' && r <= '9'; r = s.peekRune() {
			s.next()
		}
		// "1.5" is a decimal; "1..3" is a range, so a dot followed by a dot ends the integer.
		if s.peekRune() == '.' && s.off+1 < len(s.src) && s.src[s.off+1] >= '0' && s.src[s.off+1] <= '9' {
			s.next()
			for r := s.peekRune(); r >= '0' && r <= '9'; r = s.peekRune() {
				s.next()
			}
			return item{tDecimal, s.src[start:s.off], pos}
		}
		return item{tInt, s.src[start:s.off], pos}
	case r == '"':
		s.next()
		var b strings.Builder
		for {
			c := s.peekRune()
			if c == -1 || c == '\n' {
				return item{tIllegal, "this string is not closed: add a `\"` before the end of the line", pos}
			}
			if c == 0 { // no value holds a NUL, so labels can be joined by it (the JS binding does)
				return item{tIllegal, "a string cannot hold a NUL character", Pos{s.line, s.col}}
			}
			s.next()
			if c == '"' {
				return item{tString, b.String(), pos}
			}
			if c == '\\' {
				e := s.peekRune()
				switch e {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '"', '\\':
					b.WriteRune(e)
				default:
					return item{tIllegal, fmt.Sprintf("unknown escape `\\%c` in a string (use \\\" \\\\ \\n or \\t)", e), Pos{s.line, s.col - 1}}
				}
				s.next()
				continue
			}
			b.WriteRune(c)
		}
	}
	s.next()
	two := ""
	if s.off < len(s.src) {
		two = string(r) + string(s.src[s.off])
	}
	switch two {
	case "//", "==", "!=", "<=", ">=", "..":
		s.next()
		return item{tOp, two, pos}
	}
	switch r {
	case '(', '[':
		s.depth++
		return item{tOp, string(r), pos}
	case ')', ']':
		if s.depth > 0 {
			s.depth--
		}
		return item{tOp, string(r), pos}
	case '+', '-', '*', '/', '%', '<', '>', '=', '{', '}', ',', ':', ';':
		return item{tOp, string(r), pos}
	case '!':
		return item{tIllegal, "unexpected `!`: write `not x` for negation and `!=` for “not equal”", pos}
	case '&', '|', '^':
		return item{tIllegal, fmt.Sprintf("unexpected `%c`: write `and`, `or` or `xor`", r), pos}
	case '.':
		return item{tIllegal, "unexpected `.`: a range is written `a..b`", pos}
	}
	return item{tIllegal, fmt.Sprintf("unexpected character %q", r), pos}
}

// nameStart reports whether r can start a name: an ASCII letter, `_`, or any character beyond
// ASCII other than a space (names in any script, without the module carrying Unicode's tables).
func nameStart(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 && r != 0xA0 && r != 0x2028 && r != 0x2029 && r != 0xFEFF
}
