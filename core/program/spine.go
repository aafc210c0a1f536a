package program

// Spines. The parser reads a chain of left-associative operators (`a + b + … + z`), of prefix
// operators (`not not … x`) and of indexings (`x[0][0]…[0]`) in a loop, so the tree it builds
// can be as deep as the program is long: a Binary's X, a Unary's X and an Index's X continue a
// spine. Every reader of the tree (the checker, constant folding, the interpreter) walks a spine
// with a loop over an explicit slice and recurses only into the other children, whose nesting
// the parser bounds (maxDepth). In WebAssembly the Go stack lives on the JavaScript engine's,
// so recursion as deep as the input would end in "Maximum call stack size exceeded".

// spineNext returns the child that continues e's spine, or nil when e does not continue one.
func spineNext(e Expr) Expr {
	switch e := e.(type) {
	case *Binary:
		return e.X
	case *Unary:
		return e.X
	case *Index:
		return e.X
	}
	return nil
}

// spineOf returns the spine that starts at e, top first, and the expression at its foot (the
// first that does not continue it). The spine is empty when e is not an operator or an index.
func spineOf(e Expr) (nodes []Expr, foot Expr) {
	for {
		next := spineNext(e)
		if next == nil {
			return nodes, e
		}
		nodes = append(nodes, e)
		e = next
	}
}

// setSpineNext replaces the child that continues e's spine (after folding it).
func setSpineNext(e, x Expr) {
	switch e := e.(type) {
	case *Binary:
		e.X = x
	case *Unary:
		e.X = x
	case *Index:
		e.X = x
	}
}
