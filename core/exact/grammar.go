package exact

// The grammar of a typed number, stated once. Parse implements it (a test checks that it accepts
// exactly these texts), the generator (bindings/apigen) writes it into web/api.gen.js, and the
// page's reader of what people type (web/input/number.js) builds its number tokens from the
// generated copy, so that a number literal means the same on both sides of the boundary. The
// patterns use only syntax that Go's regexp and JavaScript's RegExp read alike (classes of ASCII
// characters, groups, ?, *, +, |) and carry no anchors.
//
//	decimal  := digits ['.' [digits]] [exponent] | '.' digits [exponent]
//	exponent := ('e' | 'E') ['+' | '-'] digits
//	fraction := ['+' | '-'] decimal [blank* '/' blank* decimal]      (blank: space or tab)
//
// Around a fraction, white space is ignored (strings.TrimSpace here, String.prototype.trim in
// JavaScript). The denominator carries no sign: "1/-2" is refused rather than read as -1/2. On
// top of the grammar, a zero denominator, more than MaxNumberLength characters and an exponent
// beyond ±MaxExponent are refused. The page's grammar is larger (sums, products, powers, ln, a
// typographic minus, decimal commas where asked) but its numbers are these decimals, and what it
// sends the engine is a reduced fraction of this grammar. The program language's literals ("3",
// "0.25") are a part of these decimals, with the same values (a test of core/program checks it);
// its fractions are divisions, exact like these.
const (
	// DecimalPattern is an unsigned decimal number: "3", "0.25", ".5", "5.", "1e-3", "2.5E2".
	DecimalPattern = `(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?`
	// FractionPattern is what Parse accepts once the text is trimmed: a signed decimal,
	// optionally over an unsigned one.
	FractionPattern = `[+-]?` + DecimalPattern + `(?:[ \t]*/[ \t]*` + DecimalPattern + `)?`
)

// Grammar is the grammar and the limits of a typed number as data, for the generated JavaScript.
type Grammar struct {
	Decimal     string `json:"decimal"`     // DecimalPattern
	Fraction    string `json:"fraction"`    // FractionPattern
	MaxLength   int    `json:"maxLength"`   // MaxNumberLength
	MaxExponent int    `json:"maxExponent"` // MaxExponent
}

// NumberGrammar returns the grammar of a typed number and its limits.
func NumberGrammar() Grammar {
	return Grammar{Decimal: DecimalPattern, Fraction: FractionPattern, MaxLength: MaxNumberLength, MaxExponent: MaxExponent}
}
