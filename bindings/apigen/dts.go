package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/qif-toolkit/qif/bindings"
	"github.com/qif-toolkit/qif/bindings/exactapi"
	"github.com/qif-toolkit/qif/bindings/moreapi"
	"github.com/qif-toolkit/qif/bindings/table"
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
	case table.KindString:
		return "string"
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
	case table.KindEvents:
		return "readonly AccountingEvent[]"
	case table.KindLabels:
		return "Labels"
	case table.KindSamples:
		return "Labels | Matrix"
	case table.KindEnumOrInteger:
		return "'" + strings.Join(p.Enum, "' | '") + "' | number"
	case table.KindEnumIntegerOrVector:
		return "'" + strings.Join(p.Enum, "' | '") + "' | number | readonly number[]"
	case bindings.KindObject:
		return "{ x: number }"
	case bindings.KindOptions:
		return optionsName(f, p)
	case table.KindRational:
		return "Rational"
	case table.KindRatVector:
		return "RationalVector"
	case table.KindRatMatrix, table.KindRatMetric:
		return "RationalMatrix"
	case bindings.KindCallback:
		if p.ArgsObject && p.Type != "" {
			return "(progress: " + p.Type + ") => boolean | void"
		}
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

// upper capitalizes the first k bytes of s that are ASCII lower-case letters — a doc string that
// opens with a symbol ("ε ≥ 0") keeps it as it is: upper-casing its first byte wrote invalid
// UTF-8 into qif.d.ts, and upper-casing the letter would turn ε into Ε.
func upper(s string, k int) string {
	b := []byte(s)
	for i := 0; i < k && i < len(b) && b[i] >= 'a' && b[i] <= 'z'; i++ {
		b[i] -= 'a' - 'A'
	}
	return string(b)
}

// nsInterface names the interface of a namespace: "measure" → MeasureAPI, "lp" → LPAPI,
// "exact.measure" → ExactMeasureAPI.
func nsInterface(ns string) string {
	if len(ns) <= 2 {
		return strings.ToUpper(ns) + "API"
	}
	parts := strings.Split(ns, ".")
	for i, p := range parts {
		parts[i] = upper(p, 1)
	}
	return strings.Join(parts, "") + "API"
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
	if t.Verdict != "" {
		d.verdictUnion(b, t)
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

// verdictUnion writes a result whose fields depend on a boolean verdict as a discriminated union:
// one interface per value of the verdict (the verdict typed as that literal, the fields of that
// branch required unless Optional), and the type naming their union.
func (d declared) verdictUnion(b *bytes.Buffer, t bindings.Type) {
	found := false
	for _, f := range t.Fields {
		if f.Name == t.Verdict {
			found = true
		}
		if f.When != "" && f.When != "true" && f.When != "false" {
			panic("apigen: " + t.Name + "." + f.Name + ": When must be \"true\" or \"false\"")
		}
	}
	if !found || t.Branches[0] == "" || t.Branches[1] == "" {
		panic("apigen: " + t.Name + ": a Verdict needs its boolean field and the names of both Branches")
	}
	for i, value := range []string{"true", "false"} {
		var body bytes.Buffer
		for _, f := range t.Fields {
			switch {
			case f.Name == t.Verdict:
				comment(&body, "  ", f.Doc)
				fmt.Fprintf(&body, "  %s: %s;\n", f.Name, value)
			case f.When == "" || f.When == value:
				comment(&body, "  ", f.Doc)
				fmt.Fprintf(&body, "  %s%s: %s;\n", f.Name, opt(f.Optional), tsType(f.Type))
			}
		}
		if d.once(t.Branches[i], body.String()) {
			comment(b, "", fmt.Sprintf("%s when %s is %s.", t.Name, t.Verdict, value))
			fmt.Fprintf(b, "export interface %s {\n%s}\n\n", t.Branches[i], body.String())
		}
	}
	if d.once(t.Name, t.Branches[0]+" | "+t.Branches[1]) {
		comment(b, "", t.Doc+" Narrow on "+t.Verdict+": `if (r."+t.Verdict+") …` sees the fields of "+t.Branches[0]+".")
		fmt.Fprintf(b, "export type %s = %s | %s;\n\n", t.Name, t.Branches[0], t.Branches[1])
	}
}

func (d declared) optionsInterface(b *bytes.Buffer, f *bindings.Func, p *bindings.Param) {
	var body bytes.Buffer
	for _, q := range p.Fields {
		comment(&body, "  ", paramDoc(q))
		fmt.Fprintf(&body, "  %s%s: %s;\n", q.Name, opt(!q.Required), tsParam(f, q))
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
	for _, ns := range namespaces() {
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
			switch moduleOf(f) {
			case exactapi.Module.Name:
				lines = append(lines, "@throws An Error when the exact module is not loaded yet (see ExactAPI.load).")
			case moreapi.More.Name:
				lines = append(lines, "@throws An Error when the toolkit was loaded with {lazy: true} and qif-more.wasm is not loaded yet (see QIF.loadModule).")
			}
			if _, source := formula(f); source != "" {
				lines = append(lines, "@see "+source)
			}
			if t := twin(f); t != nil {
				lines = append(lines, "@see "+t.Qualified()+" (floating point)")
			}
			comment(&members, "  ", lines...)
			fmt.Fprintf(&members, "  %s(%s): %s;\n", f.Name, strings.Join(args, ", "), tsType(f.Result))
		}
		members.WriteString(jsOnly[ns])
		fmt.Fprintf(&b, "export interface %s {\n%s}\n\n", nsInterface(ns), members.String())
	}
	b.WriteString("// ───────────────────────────── The API object ─────────────────────────────\n\n")
	b.WriteString("/** The loaded API: frozen namespaces of synchronous functions. */\nexport interface QIF {\n")
	b.WriteString("  /** Version of the WebAssembly module. */\n  readonly version: string;\n")
	for _, ns := range namespaces() {
		if !strings.HasPrefix(ns, "exact.") { // the main module's, and qif.program (served by the exact module)
			fmt.Fprintf(&b, "  readonly %s: Readonly<%s>;\n", ns, nsInterface(ns))
		}
	}
	b.WriteString("  /** The exact mode: see ExactAPI. */\n  readonly exact: ExactAPI;\n")
	b.WriteString(strings.Replace(dtsFooter, "SPLIT", strings.ReplaceAll(splitList("channel", "more"), "`", ""), 1))
	b.WriteString(exactAPIDoc)
	for _, ns := range exactapi.Namespaces {
		if !strings.HasPrefix(ns, "exact.") {
			continue
		}
		fmt.Fprintf(&b, "  readonly %s: Readonly<%s>;\n", strings.TrimPrefix(ns, "exact."), nsInterface(ns))
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// The object qif.exact: its loader and its namespaces (written after the members below).
const exactAPIDoc = `
/**
 * The exact mode, qif.exact: rational arithmetic, results as reduced fraction strings ("2/7") and
 * matrices as ExactMatrix. It is a WebAssembly module of its own (qif-exact.wasm), loaded on demand:
 * load({ exact: true }) loads it with the main module, or await qif.loadModule('exact') (or its
 * alias qif.exact.load()) loads it later.
 * Its functions are synchronous once it is loaded; called before, they throw an Error saying so.
 */
export interface ExactAPI {
  /** Whether the exact module is loaded (its functions can be called). */
  readonly loaded: boolean;
  /**
   * Loads the exact module, once: later calls return the same promise (a failed load may be retried).
   * Resolves to this object. The same as qif.loadModule('exact'), kept as an alias, with a wasmURL option.
   */
  load(options?: ExactLoadOptions): Promise<ExactAPI>;
`

const dtsHeader = `//
// Conventions (docs/mathematics.md): a channel C is n×m and row-stochastic, C[x][y] = p(y|x) (rows = secrets, columns =
// observables); a gain matrix G is |W|×|X| (rows = guesses, columns = secrets). Entropies, leakages
// and capacities are in bits (log₂); ε is in nats (ln); vulnerabilities, risks and δ are
// probabilities. JSON.stringify(result) writes vectors as arrays of numbers and matrices as arrays
// of rows (a non-enumerable toJSON; Infinity and NaN become null), which parse back into arguments.
//
// Errors: bad input throws an Error whose message starts with the function and names the argument
// ("mechanism.utility: prior: ..."), with rows, columns and entries as JS indices counted from 0
// ("channel: row 2 sums to 0.9" is the third row), and carries the same facts as data (ArgumentError):
// error.argument, error.index (a row or entry, or [row, column]) and error.detail, so that a program
// need not parse the message; an options object with a key the function does not know throws
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

/** Sample labels (estimate.*): an array of numbers or of strings (one type), or a typed array. */
export type Labels = readonly number[] | readonly string[] | NumericTypedArray;

/** Samples read from CSV or TSV text by estimate.readSamples. */
export interface ReadSamples {
  /** One secret per sample: integers (Int32Array), numbers (Float64Array), or codes into secretNames. */
  secrets: Int32Array | Float64Array;
  /** The distinct secret labels (sorted) when the secrets are not numbers, else null. */
  secretNames: string[] | null;
  /** A matrix with one row per sample when every observation cell is a number, else codes into observationNames. */
  observations: Matrix | Int32Array;
  /** The distinct observation labels (the cells of a row joined by ", "), else null. */
  observationNames: string[] | null;
  /** The names of the first line when it is a header, else null. */
  header: string[] | null;
  /** The number of samples. */
  rows: number;
  /** The number of observation columns. */
  observationColumns: number;
  /** Whether some number was written with a decimal comma (0,5). */
  decimalComma: boolean;
}

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

/** Progress report of the linear-program solvers (mechanism.optimalLP, lp.solve). */
export interface LPProgress {
  /** Simplex iterations (decomposition: master pivots) so far. */
  iteration: number;
  /** Current objective value, in the program's sense (mechanism.optimalLP with a loss maximizes minus the expected loss); with 'decomposition', the value of a feasible mechanism. */
  objective: number;
  /** Current primal infeasibility ('decomposition': the gap of the last pricing round). */
  infeasibility: number;
  /** "dual phase 1", "dual", "primal" or "decomposition". */
  phase: string;
  /** The best bound on the optimum proven so far, in the objective's sense (an upper bound when maximizing): the optimum lies between objective and bound. ±Infinity before the first bound; NaN from the simplex, which proves none before it ends. */
  bound: number;
}

/** Status of a linear program's solve ('cancelled' only in the partial result of an AbortError; 'imprecise': no point the solver reached checks optimal within the tolerances on the problem as stated — see primalResidual, dualResidual). */
export type LPStatus = 'optimal' | 'infeasible' | 'unbounded' | 'iteration limit' | 'time limit' | 'cancelled' | 'imprecise';

/** One constraint of lp.solve: coeffs sparse [[variable, coefficient], ...] (an empty array is the constraint 0 op rhs) or dense (one entry per variable); a key other than coeffs, op, rhs throws, as in the problem (sense, objective, rows, lower, upper). */
export interface LPRow {
  coeffs: readonly (readonly [number, number])[] | readonly number[];
  op: '<=' | '=' | '==' | '>=';
  rhs: number;
}

/** A linear program for lp.solve. */
/** One privacy event of qif.accounting: a mechanism run count times (default 1). Sensitivity defaults to 1. */
export type AccountingEvent =
  | { mechanism: 'gaussian'; sigma: number; sensitivity?: number; count?: number }
  | { mechanism: 'laplace'; scale: number; sensitivity?: number; count?: number }
  | { mechanism: 'geometric'; epsilon: number; count?: number }
  | { mechanism: 'randomizedResponse'; epsilon: number; count?: number }
  | { mechanism: 'pure'; epsilon: number; count?: number }
  | { mechanism: 'approximate'; epsilon: number; delta: number; count?: number }
  | { mechanism: 'channel'; channel: Matrix; graph?: GraphInput; count?: number }
  | { mechanism: 'subsampled'; rate: number; of: AccountingEvent; count?: number };

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

/** A rational number of the exact mode: a number (read as the decimal it prints as: 0.1 is 1/10), a bigint or a string ("1/3", "0.25", "2"). */
export type Rational = number | bigint | string;

/** A vector of the exact mode: an array of rationals, or a typed array of numbers. */
export type RationalVector = readonly Rational[] | NumericTypedArray;

/** A matrix of the exact mode: an array of rows, or {rows, cols, data} row-major (an ExactMatrix result is accepted back). */
export type RationalMatrix = readonly RationalVector[] | { readonly rows: number; readonly cols: number; readonly data: RationalVector };

/** A matrix result of the exact mode: row-major reduced fractions, entry [i][j] at data[i*cols + j]. */
export interface ExactMatrix {
  rows: number;
  cols: number;
  data: string[];
}

/** The price of one privacy row H[from][output] ≤ factor·H[to][output] in a certificate of exact.mechanism.optimal. */
export interface ExactPrivacyPrice {
  from: number;
  to: number;
  output: number;
  /** e^{ε·d(from, to)}, exactly. */
  factor: string;
  /** The dual price: ≥ 0 for a gain, ≤ 0 for a loss (either sign for a pair at distance 0). */
  price: string;
}

/** Progress report of program.channel: the secret values run so far, out of their number. */
export interface ProgramProgress {
  done: number;
  total: number;
}

/** Progress report of the exact solvers (exact.mechanism.optimal, exact.refine.avg). */
export interface ExactProgress {
  /** "floating point" (the solve that finds a starting basis) or "exact" (the pivots in rationals). */
  stage: 'floating point' | 'exact';
  /** Simplex iterations of the floating-point solve so far. */
  iterations: number;
  /** Exact pivots so far. */
  pivots: number;
}

/**
 * The Error bad input throws: the message names the function and the argument, and the same facts
 * are fields, set where the fault is in one argument (some errors concern several arguments or none
 * and have no argument).
 */
export interface ArgumentError extends Error {
  /** The argument as the message names it ("channel", "prior", "epsilon", "graph.edges", an option's key). */
  argument?: string;
  /** Where in it, counted from 0: a row of a matrix or an entry of a vector (a number), or [row, column]. */
  index?: number | [number, number];
  /** What is wrong, without the function, the argument and the position ("sums to 0.9, expected 1"). */
  detail?: string;
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
  /**
   * The one loader of the modules loaded on demand: loads a further module once (later calls share
   * the promise; again after a failure) and resolves to the API. 'more' (qif-more.wasm: metrics,
   * privacy, graphs, mechanisms, refinement, information privacy, estimation, lp, and
   * SPLIT) is needed only after load({ lazy: true });
   * 'exact' (qif-exact.wasm: qif.exact and qif.program) unless load({ exact: true }).
   * qif.exact.load() is an alias of loadModule('exact') that also takes a wasmURL and resolves to
   * qif.exact. describe(f).module names the module of a function.
   */
  loadModule(name: 'more' | 'exact'): Promise<QIF>;
  /** Whether a module ('main', 'more' or 'exact') is loaded, so that its functions run at once. */
  moduleLoaded(name: 'main' | 'more' | 'exact'): boolean;
}

/** A parameter (or an option key) in the API table. */
export interface ApiParam {
  name: string;
  /** The name errors use when it differs from name. */
  label?: string;
  kind: 'number' | 'integer' | 'boolean' | 'string' | 'enum' | 'vector' | 'indices' | 'matrix' | 'graph' | 'callback' | 'options' | 'object' | 'lpProblem' | 'events'
    | 'rational' | 'ratVector' | 'ratMatrix' | 'ratMetric';
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
  /** The TypeScript type. */
  type: string;
  doc?: string;
}

/** A result type in the API table. */
export interface ApiType {
  ts: string;
  name?: string;
  doc?: string;
  /** The keys of an object result; with verdict, when says under which value of it a key is present. */
  fields?: { name: string; type: ApiType; optional?: boolean; when?: 'true' | 'false'; doc?: string }[];
  /** A boolean field that decides which keys are present (the type is then a discriminated union). */
  verdict?: string;
}

/** A function in the API table. */
export interface ApiFunction {
  ns: string;
  name: string;
  /** The module serving the function: 'more' (qif-more.wasm) or 'exact' (qif-exact.wasm); absent for the first module's (qif.wasm). */
  module?: 'more' | 'exact';
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
  /** The file of each module ('main', 'more', 'exact'); ApiFunction.module names the module of a function. */
  modules: Record<string, string>;
  /** Size limits of the modules (entries, nonzeros), by name. */
  limits: Record<string, number>;
  /** The number of wire values of each argument kind that takes more than one. */
  widths: Record<string, number>;
  /** Tolerances both sides apply: rowSum, the absolute tolerance on row and prior sums. */
  tolerances: { rowSum: number };
  /**
   * The grammar of a typed number that the exact reader implements: decimal and fraction as
   * regular expressions (without anchors, read alike by Go and JavaScript), the longest number
   * in characters and the largest |k| of an exponent e±k.
   */
  number: { decimal: string; fraction: string; maxLength: number; maxExponent: number };
  functions: ApiFunction[];
}

/** Options of load(); a key not listed here is refused, as in every function's options. */
export interface LoadOptions {
  /** Where qif.wasm lives (resolved against qif.js); by default qif.wasm beside qif.js. */
  wasmURL?: string | URL;
  /**
   * qif.wasm already compiled, or a promise of it (WebAssembly.compileStreaming(fetch(url))):
   * nothing is fetched for the main module. For a worker that starts compiling before its
   * scripts load, or a page that compiles once and posts the module to several workers.
   */
  wasmModule?: WebAssembly.Module | Promise<WebAssembly.Module>;
  /** Load the exact mode's module too, so that qif.exact works at once (default false: see ExactAPI.load). */
  exact?: boolean;
  /** Where qif-exact.wasm lives; by default beside qif.wasm. */
  exactWasmURL?: string | URL;
  /**
   * Load only qif.wasm (channels and measures) now and qif-more.wasm when asked (QIF.loadModule):
   * until then its functions throw an Error saying so. For a worker or a widget whose calls are
   * asynchronous anyway and that would rather show its first number sooner. Default false: both
   * modules load at once, in parallel, and every function of qif.* works when load() resolves.
   */
  lazy?: boolean;
  /** Where qif-more.wasm lives; by default beside qif.wasm. */
  moreWasmURL?: string | URL;
  /** qif-more.wasm already compiled, or a promise of it (as wasmModule for qif.wasm). */
  moreWasmModule?: WebAssembly.Module | Promise<WebAssembly.Module>;
}

/** Options of qif.exact.load(); a key not listed here is refused. */
export interface ExactLoadOptions {
  /** Where qif-exact.wasm lives (resolved against qif.js); by default load()'s exactWasmURL, or beside qif.wasm. */
  wasmURL?: string | URL;
}

/**
 * Loads the WebAssembly module (browser, Web Worker or Node ≥ 20) and returns the API.
 * Each call starts an independent instance.
 */
export function load(options?: LoadOptions): Promise<QIF>;
`

// jsOnly are the members of a namespace written in JavaScript (web/qif.js adds them to the
// namespace; they are not in the table, so qif.describe does not list them), by namespace.
var jsOnly = map[string]string{
	"estimate": `  /**
   * Reads samples from CSV or TSV text, as the page's "From observations" does: one line per sample, the secret
   * first, then one or more observation columns; cells separated by tabs, semicolons or commas (from the first
   * line); quoted fields ("a, b", "" for a quote); decimal commas (0,5) where the separator is not a comma or the
   * cell is quoted; a first line of names is a header. Runs in JavaScript (no module needed).
   * Secrets: an Int32Array of integers, a Float64Array of numbers, or label codes into secretNames;
   * observations: a Matrix {rows, cols, data} when every observation cell is a number (read as numbers by
   * kind 'auto': pass kind 'labels' when they are codes), else an Int32Array of codes into observationNames.
   * @param text the file's text
   * @param options onProgress(fraction read)
   * @throws An Error naming the line ("estimate.readSamples: line 7: 3 columns, expected 4").
   */
  readSamples(text: string, options?: { onProgress?: (fraction: number) => void }): ReadSamples;
`,
}
