package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/qif-toolkit/qif/bindings"
)

// tsType is the TypeScript of a result type.
func tsType(t bindings.Type) string {
	if t.TS != "" {
		return t.TS
	}
	if t.Name != "" {
		return t.Name
	}
	parts := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		parts[i] = f.Name + opt(f.Optional) + ": " + tsType(f.Type)
	}
	return "{ " + strings.Join(parts, "; ") + " }"
}

func opt(b bool) string {
	if b {
		return "?"
	}
	return ""
}

// tsParam is the TypeScript of a parameter.
func tsParam(f *bindings.Func, p *bindings.Param) string {
	switch p.Kind {
	case bindings.KindNumber, bindings.KindInteger:
		return "number"
	case bindings.KindBoolean:
		return "boolean"
	case bindings.KindEnum:
		return "'" + strings.Join(p.Enum, "' | '") + "'"
	case bindings.KindVector, bindings.KindIndices:
		return "Vector"
	case bindings.KindMatrix:
		return "Matrix"
	case bindings.KindGraph:
		return "GraphInput"
	case bindings.KindLPProblem:
		return "LPProblem"
	case bindings.KindObject:
		return "{ x: number }"
	case bindings.KindOptions:
		return optionsName(f, p)
	case bindings.KindCallback:
		if p.ArgsObject {
			return "(progress: LPProgress) => boolean | void"
		}
		args := make([]string, len(p.CallArgs))
		for i, a := range p.CallArgs {
			args[i] = a + ": number"
		}
		return "(" + strings.Join(args, ", ") + ") => boolean | void"
	}
	panic("apigen: no TypeScript for kind " + string(p.Kind))
}

func optionsName(f *bindings.Func, p *bindings.Param) string {
	if p.Type != "" {
		return p.Type
	}
	return upper(f.Name, 1) + "Options"
}

// upper capitalizes the first k letters of s.
func upper(s string, k int) string {
	k = min(k, len(s))
	return strings.ToUpper(s[:k]) + s[k:]
}

func nsInterface(ns string) string {
	if len(ns) <= 2 {
		return strings.ToUpper(ns) + "API"
	}
	return upper(ns, 1) + "API"
}

// comment writes a JSDoc comment of lines at the indentation ind.
func comment(b *bytes.Buffer, ind string, lines ...string) {
	var keep []string
	for _, l := range lines {
		if l != "" {
			keep = append(keep, l)
		}
	}
	switch len(keep) {
	case 0:
	case 1:
		fmt.Fprintf(b, "%s/** %s */\n", ind, keep[0])
	default:
		fmt.Fprintf(b, "%s/**\n", ind)
		for _, l := range keep {
			fmt.Fprintf(b, "%s * %s\n", ind, l)
		}
		fmt.Fprintf(b, "%s */\n", ind)
	}
}

// paramDoc is what a parameter's comment says: its meaning, its constraint and its default.
func paramDoc(p *bindings.Param) string {
	s := upper(p.Doc, 1)
	if p.Kind == bindings.KindOptions {
		keys := make([]string, len(p.Fields))
		for i, q := range p.Fields {
			keys[i] = q.Name
		}
		if s == "" {
			s = "Keys: "
		} else {
			s += "; keys: "
		}
		s += strings.Join(keys, ", ")
	}
	if p.Check != bindings.CheckNone {
		s += "; " + p.Check.Describe(p.Kind)
	}
	if d := defaultText(p); d != "" {
		s += " (default " + d + ")"
	}
	if s != "" && !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// declared tracks the named interfaces written, to write each once and catch two different
// shapes under one name.
type declared map[string]string

func (d declared) once(name, body string) bool {
	if old, ok := d[name]; ok {
		if old != body {
			panic("apigen: two different shapes are both named " + name)
		}
		return false
	}
	d[name] = body
	return true
}

func (d declared) resultInterfaces(b *bytes.Buffer, t bindings.Type) {
	for _, f := range t.Fields {
		d.resultInterfaces(b, f.Type)
	}
	if t.Name == "" || t.TS != "" {
		return
	}
	var body bytes.Buffer
	for _, f := range t.Fields {
		comment(&body, "  ", f.Doc)
		fmt.Fprintf(&body, "  %s%s: %s;\n", f.Name, opt(f.Optional), tsType(f.Type))
	}
	if d.once(t.Name, body.String()) {
		comment(b, "", t.Doc)
		fmt.Fprintf(b, "export interface %s {\n%s}\n\n", t.Name, body.String())
	}
}

func (d declared) optionsInterface(b *bytes.Buffer, f *bindings.Func, p *bindings.Param) {
	var body bytes.Buffer
	for _, q := range p.Fields {
		comment(&body, "  ", paramDoc(q))
		fmt.Fprintf(&body, "  %s%s: %s;\n", q.Name, opt(!q.Required), tsParam(f, q))
		if q.Alias != "" {
			comment(&body, "  ", "@deprecated The old name of "+q.Name+"; use "+q.Name+".")
			fmt.Fprintf(&body, "  %s?: %s;\n", q.Alias, tsParam(f, q))
		}
	}
	name := optionsName(f, p)
	if d.once(name, body.String()) {
		comment(b, "", "Options of "+f.Qualified()+".")
		fmt.Fprintf(b, "export interface %s {\n%s}\n\n", name, body.String())
	}
}

func declarations(fs []*bindings.Func) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// qif.d.ts — types of the QIF/DP toolkit's JavaScript API. %s\n", banner)
	b.WriteString(dtsHeader)
	d := declared{}
	for _, ns := range bindings.Namespaces {
		fmt.Fprintf(&b, "// ───────────────────────────── qif.%s ─────────────────────────────\n\n", ns)
		var members bytes.Buffer
		for _, f := range fs {
			if f.NS != ns {
				continue
			}
			d.resultInterfaces(&b, f.Result)
			lines := []string{f.Doc}
			args := make([]string, len(f.Params))
			for i, p := range f.Params {
				if p.Kind == bindings.KindOptions {
					d.optionsInterface(&b, f, p)
				}
				lines = append(lines, "@param "+p.Name+" "+paramDoc(p))
				args[i] = p.Name + opt(p.Optional) + ": " + tsParam(f, p)
			}
			if f.Long() {
				lines = append(lines, "@throws An Error named 'AbortError' when onProgress returns false.")
			}
			if f.Source != "" {
				lines = append(lines, "@see "+f.Source)
			}
			comment(&members, "  ", lines...)
			fmt.Fprintf(&members, "  %s(%s): %s;\n", f.Name, strings.Join(args, ", "), tsType(f.Result))
		}
		fmt.Fprintf(&b, "export interface %s {\n%s}\n\n", nsInterface(ns), members.String())
	}
	b.WriteString("// ───────────────────────────── The API object ─────────────────────────────\n\n")
	b.WriteString("/** The loaded API: frozen namespaces of synchronous functions. */\nexport interface QIF {\n")
	b.WriteString("  /** Version of the WebAssembly module. */\n  readonly version: string;\n")
	for _, ns := range bindings.Namespaces {
		fmt.Fprintf(&b, "  readonly %s: Readonly<%s>;\n", ns, nsInterface(ns))
	}
	b.WriteString(dtsFooter)
	return b.Bytes()
}

const dtsHeader = `//
// Conventions (docs/mathematics.md): a channel C is n×m and row-stochastic, C[x][y] = p(y|x) (rows = secrets, columns =
// observables); a gain matrix G is |W|×|X| (rows = guesses, columns = secrets). Entropies, leakages
// and capacities are in bits (log₂); ε is in nats (ln); vulnerabilities, risks and δ are
// probabilities.
//
// Errors: bad input throws an Error whose message starts with the function and names the argument
// ("mechanism.utility: prior: ..."); an options object with a key the function does not know throws
// and lists the keys it knows. Options that bound something (tolerances, time limits, budgets) must
// be positive: 0, negative values and NaN are refused alike. The instance keeps working after any
// error.
//
// Cancellation: a function that takes onProgress calls it while it works; returning false cancels
// the call, which then throws an Error whose name is 'AbortError' and message "<ns>.<name>: cancelled",
// with the result as far as it got in error.partial where there is one. An exception thrown by
// onProgress cancels the call too and is rethrown as it was.

// ───────────────────────────── Values ─────────────────────────────

/** Numeric typed arrays accepted wherever a vector is (copied into a Float64Array). */
export type NumericTypedArray =
  | Float64Array | Float32Array
  | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array | Uint8ClampedArray;

/** A vector argument: a plain array of numbers or a typed array. */
export type Vector = readonly number[] | NumericTypedArray;

/** A matrix as {rows, cols, data} with ` + "`data`" + ` row-major (length rows×cols). */
export interface MatrixData {
  readonly rows: number;
  readonly cols: number;
  readonly data: Vector;
}

/** A matrix argument: an array of rows (each an array or typed array) or {rows, cols, data}. */
export type Matrix = readonly Vector[] | MatrixData;

/** A matrix result: row-major ` + "`data`" + `, entry [i][j] at data[i*cols + j]. Accepted back as input. */
export interface MatrixOut {
  rows: number;
  cols: number;
  data: Float64Array;
}

/** An undirected graph on vertices 0..n−1 as returned by the API (each edge once, a < b, sorted). */
export interface Graph {
  n: number;
  edges: [number, number][];
}

/** A graph argument: {n, edges} with each edge a pair [a, b] of vertices in 0..n−1. */
export interface GraphInput {
  readonly n: number;
  readonly edges: readonly (readonly [number, number] | readonly number[])[];
}

/** Progress report of the simplex solver (mechanism.optimalLP, lp.solve). */
export interface LPProgress {
  iteration: number;
  /** Current objective value. */
  objective: number;
  /** Current primal infeasibility. */
  infeasibility: number;
  /** "dual phase 1", "dual" or "primal". */
  phase: string;
}

/** Status of a linear program's solve ('cancelled' only in the partial result of an AbortError; 'imprecise': no point the solver reached checks optimal within the tolerances on the problem as stated — see primalResidual, dualResidual). */
export type LPStatus = 'optimal' | 'infeasible' | 'unbounded' | 'iteration limit' | 'time limit' | 'cancelled' | 'imprecise';

/** One constraint of lp.solve: coeffs sparse [[variable, coefficient], ...] or dense (one entry per variable). */
export interface LPRow {
  coeffs: readonly (readonly [number, number])[] | readonly number[];
  op: '<=' | '=' | '==' | '>=';
  rhs: number;
}

/** A linear program for lp.solve. */
export interface LPProblem {
  /** 'min' by default. */
  sense?: 'min' | 'max';
  /** Objective coefficients c, one per variable. */
  objective: Vector;
  rows?: readonly LPRow[];
  /** Lower bounds (default 0; -Infinity or null: none). */
  lower?: readonly (number | null)[] | Float64Array;
  /** Upper bounds (default Infinity; Infinity or null: none). */
  upper?: readonly (number | null)[] | Float64Array;
}

/** The Error a cancelled call throws. */
export interface AbortError extends Error {
  name: 'AbortError';
  /** The result as far as it got, where the function has one (shannonCapacity, lp.solve, refine.safeEpsilonCurve). */
  partial?: unknown;
}

`

const dtsFooter = `  /**
   * The API table at run time: every function with its parameters, options (kinds, defaults,
   * constraints), result, documentation, formula and source. With a name ("measure.shannonCapacity"),
   * a namespace ("measure") or a function of the API, only that part.
   */
  describe(): ApiTable;
  describe(name: string | ((...args: never[]) => unknown)): ApiFunction | ApiFunction[];
}

/** A parameter (or an option key) in the API table. */
export interface ApiParam {
  name: string;
  /** The name errors use when it differs from name. */
  label?: string;
  kind: 'number' | 'integer' | 'boolean' | 'enum' | 'vector' | 'indices' | 'matrix' | 'graph' | 'callback' | 'options' | 'object' | 'lpProblem';
  optional?: boolean;
  required?: boolean;
  default?: number | boolean | string;
  defaultDoc?: string;
  check?: string;
  enum?: string[];
  fields?: ApiParam[];
  /** callback: the arguments it is called with (one object of these keys when argsObject). */
  callArgs?: string[];
  argsObject?: boolean;
  /** A deprecated second key for the same option. */
  alias?: string;
  /** The TypeScript type. */
  type: string;
  doc?: string;
}

/** A result type in the API table. */
export interface ApiType {
  ts: string;
  name?: string;
  doc?: string;
  fields?: { name: string; type: ApiType; optional?: boolean; doc?: string }[];
}

/** A function in the API table. */
export interface ApiFunction {
  ns: string;
  name: string;
  signature: string;
  doc: string;
  tex?: string;
  source?: string;
  /** Takes onProgress and can be cancelled. */
  long: boolean;
  params: ApiParam[];
  result: ApiType;
  /** Where callbacks go: [argument index, option key] or [argument index, null] for the argument itself. */
  callbacks: [number, string | null][];
}

/** The API table. */
export interface ApiTable {
  namespaces: string[];
  functions: ApiFunction[];
}

/** Options of load(). */
export interface LoadOptions {
  /** Where qif.wasm lives (resolved against qif.js); by default qif.wasm beside qif.js. */
  wasmURL?: string | URL;
}

/**
 * Loads the WebAssembly module (browser, Web Worker or Node ≥ 20) and returns the API.
 * Each call starts an independent instance.
 */
export function load(options?: LoadOptions): Promise<QIF>;
`
