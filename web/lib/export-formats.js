// lib/export-formats.js — matrices and result tables as CSV, TSV, JSON and LaTeX text. Pure (no
// DOM): the page writes small exports itself and large ones in its data worker.
//
// Data shape:  {kind: 'matrix' | 'table', what?, rowLabels?, colLabels?, corner?, rows | block}
//   rows:  (number | string)[][]; a string is an entry as typed ("1/3") or, in a table, text.
//   block: {rows, cols, data: Float64Array, texts?: Map<index, string>} — a large matrix, flat;
//          texts holds the typed text of the entries that have one.
//   corner: the text of the top-left cell when there are both labels (a table's first header).
//   notes:  [[name, value], ...], the provenance of a table (file, n, seed, version…); cite: text,
//          how to cite it. CSV and TSV write them below the table after an empty line, one
//          name and value a line; JSON as {provenance, cite, rows}; LaTeX as comments.
//
// Numbers (decided once for every format):
//   - an entry typed as an exact number ("1/3", "0.1 + 0.2") is that number rounded once to the
//     nearest double, and a value the page knows exactly is given as that exact value: 3, not
//     2.9999999999999996;
//   - CSV, TSV and JSON write the shortest decimal that reads back as the same double (what
//     JavaScript's String(x) prints): full precision, no binary noise beyond the double itself;
//     a fraction such as 1/3 is written as its double 0.3333333333333333 (spreadsheets would read
//     "1/3" as a date);
//   - LaTeX writes exact fractions as \frac{1}{3} and other numbers to 6 significant digits,
//     in math mode ($…$ in tables, \[…\] around a matrix), with \times 10^{k} for exponents.
// Text: in CSV and TSV every non-empty text field is quoted and no number is, so that labels
// such as 000 or (Fail,1) paste back into the page's grid as labels (input/grid.js reads quotes
// that way); "" stands for a quote inside. Text that a spreadsheet would run as a formula
// (starting with = + - @ or a tab) is prefixed with ' (numbers are never touched). In LaTeX,
// text is escaped, Greek letters and common symbols become math, accented Latin letters TeX
// accents, and any other character is written as [U+XXXX], so that the text compiles with
// pdfLaTeX as well as XeLaTeX and LuaLaTeX.

import { parseNumber, parseRational } from '../input/number.js';

// ---------------------------------------------------------------- cells

/** Number of rows of the data, and the cell (i, j): a number or a string. */
function shape(d) {
  if (d.block) {
    const { rows, cols, data, texts } = d.block;
    return { n: rows, width: () => cols, at: (i, j) => texts?.get(i * cols + j) ?? data[i * cols + j] };
  }
  return { n: d.rows.length, width: (i) => d.rows[i].length, at: (i, j) => d.rows[i][j] };
}

/** The value of a typed entry as a double: exact rationals rounded once; null for text. */
export function numberOf(v) {
  if (typeof v === 'number') return v;
  const f = parseRational(v);
  if (f) return f.toNumber();
  const r = parseNumber(v);
  return 'value' in r ? r.value : null;
}

function numberText(x) {
  if (Number.isFinite(x)) return String(x);
  return x > 0 ? 'Infinity' : x < 0 ? '-Infinity' : 'NaN';
}

// ---------------------------------------------------------------- CSV and TSV

function delimitedField(v, sep) {
  if (typeof v === 'number') return numberText(v);
  let s = String(v ?? '');
  if (s === '') return '';
  if (/^[=+\-@\t\r]/.test(s) && numberOf(s) === null) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

function delimited(d, sep) {
  const { n, width, at } = shape(d);
  // A matrix's entries are numbers (typed fractions become decimals); a table's text stays text.
  const value = d.kind === 'table' ? (v) => v : (v) => { const x = numberOf(v); return x === null ? v : x; };
  const field = (v) => delimitedField(v, sep);
  const lines = [];
  if (d.colLabels) lines.push([...(d.rowLabels ? [d.corner ?? ''] : []), ...d.colLabels].map(field).join(sep));
  for (let i = 0; i < n; i++) {
    const cells = [];
    if (d.rowLabels) cells.push(field(d.rowLabels[i]));
    for (let j = 0, w = width(i); j < w; j++) cells.push(field(value(at(i, j))));
    lines.push(cells.join(sep));
  }
  const notes = notesOf(d);
  if (notes.length) lines.push('', ...notes.map(([k, v]) => `${field(k)}${sep}${field(v)}`));
  return `${lines.join('\n')}\n`;
}

/** A table's provenance and citation as [name, value] pairs (none for data without them). */
function notesOf(d) {
  const out = Array.isArray(d.notes) ? d.notes.map(([k, v]) => [String(k), v]) : [];
  if (d.cite) out.push(['how to cite', String(d.cite)]);
  return out;
}

/** CSV (RFC 4180; lines end in \n) of a matrix or table. */
export const toCSV = (d) => delimited(d, ',');

/** TSV for spreadsheets: the CSV rules with tabs between fields. */
export const toTSV = (d) => delimited(d, '\t');

// ---------------------------------------------------------------- JSON

const jsonValue = (v) => {
  const x = numberOf(v);
  if (x === null) return String(v);
  return Number.isFinite(x) ? x : String(x); // JSON has no Infinity
};

/** JSON text of a matrix ({rowLabels?, colLabels?, rows}) or table (array of row objects). */
export function toJSON(d) {
  const { n, width, at } = shape(d);
  const row = (i, f) => Array.from({ length: width(i) }, (_, j) => f(at(i, j)));
  if (d.kind === 'table') {
    const keys = d.colLabels ?? (n ? row(0, () => null).map((_, j) => `column ${j + 1}`) : []);
    const objs = [];
    for (let i = 0; i < n; i++) {
      const o = {};
      if (d.rowLabels) o[d.corner || ''] = d.rowLabels[i];
      row(i, (v) => v).forEach((v, j) => { o[keys[j] ?? `column ${j + 1}`] = typeof v === 'number' ? jsonValue(v) : v; });
      objs.push(o);
    }
    if (d.notes || d.cite) {
      const provenance = {};
      for (const [k, v] of d.notes ?? []) provenance[k] = typeof v === 'number' ? jsonValue(v) : v;
      return `${JSON.stringify({ provenance, ...(d.cite ? { cite: String(d.cite) } : {}), rows: objs }, null, 2)}\n`;
    }
    return `${JSON.stringify(objs, null, 2)}\n`;
  }
  const parts = [];
  if (d.rowLabels) parts.push(`  "rowLabels": ${JSON.stringify(d.rowLabels)}`);
  if (d.colLabels) parts.push(`  "colLabels": ${JSON.stringify(d.colLabels)}`);
  const lines = [];
  for (let i = 0; i < n; i++) lines.push(`    ${JSON.stringify(row(i, jsonValue))}`);
  parts.push(`  "rows": [\n${lines.join(',\n')}\n  ]`);
  return `{\n${parts.join(',\n')}\n}\n`;
}

// ---------------------------------------------------------------- LaTeX

const TEX_ESCAPES = {
  '\\': '\\textbackslash{}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_', '{': '\\{', '}': '\\}',
  '~': '\\textasciitilde{}', '^': '\\textasciicircum{}', '|': '\\textbar{}', '<': '\\textless{}', '>': '\\textgreater{}',
};

// Characters people put in labels and the page puts in names, as TeX that pdfLaTeX knows.
const TEX_SYMBOLS = {
  α: '$\\alpha$', β: '$\\beta$', γ: '$\\gamma$', δ: '$\\delta$', ε: '$\\varepsilon$', ζ: '$\\zeta$', η: '$\\eta$', θ: '$\\theta$',
  ι: '$\\iota$', κ: '$\\kappa$', λ: '$\\lambda$', μ: '$\\mu$', ν: '$\\nu$', ξ: '$\\xi$', π: '$\\pi$', ρ: '$\\rho$', σ: '$\\sigma$',
  ς: '$\\varsigma$', τ: '$\\tau$', υ: '$\\upsilon$', φ: '$\\varphi$', χ: '$\\chi$', ψ: '$\\psi$', ω: '$\\omega$',
  Γ: '$\\Gamma$', Δ: '$\\Delta$', Θ: '$\\Theta$', Λ: '$\\Lambda$', Ξ: '$\\Xi$', Π: '$\\Pi$', Σ: '$\\Sigma$', Υ: '$\\Upsilon$',
  Φ: '$\\Phi$', Ψ: '$\\Psi$', Ω: '$\\Omega$',
  '×': '$\\times$', '÷': '$\\div$', '−': '$-$', '±': '$\\pm$', '·': '$\\cdot$', '≤': '$\\leq$', '≥': '$\\geq$', '≠': '$\\neq$',
  '≈': '$\\approx$', '∞': '$\\infty$', '→': '$\\to$', '←': '$\\leftarrow$', '⊑': '$\\sqsubseteq$', '▷': '$\\triangleright$',
  '∑': '$\\sum$', '√': '$\\surd$', '∈': '$\\in$', '∅': '$\\emptyset$', '′': '$\\prime$', '°': '$^\\circ$',
  '₀': '$_0$', '₁': '$_1$', '₂': '$_2$', '₃': '$_3$', '₊': '$_+$', 'ₓ': '$_x$', '⁰': '$^0$', '¹': '$^1$', '²': '$^2$', '³': '$^3$',
  '…': '\\ldots{}', '–': '--', '—': '---', '‘': '`', '’': "'", '“': '``', '”': "''", '«': '<<', '»': '>>', '\u00a0': '~',
  ß: '\\ss{}', æ: '\\ae{}', Æ: '\\AE{}', œ: '\\oe{}', Œ: '\\OE{}', ø: '\\o{}', Ø: '\\O{}', ł: '\\l{}', Ł: '\\L{}', å: '\\aa{}',
  Å: '\\AA{}', ı: '\\i{}', '¿': '?`', '¡': '!`', '§': '\\S{}', '¶': '\\P{}', '©': '\\copyright{}', '€': 'EUR', '£': '\\pounds{}',
};

// Combining accents (after NFD) as TeX accent commands that need no font encoding package.
const TEX_ACCENTS = {
  '\u0300': '\\`', '\u0301': "\\'", '\u0302': '\\^', '\u0303': '\\~', '\u0308': '\\"', '\u0304': '\\=', '\u0307': '\\.',
  '\u030b': '\\H', '\u030c': '\\v', '\u0306': '\\u', '\u030a': '\\r', '\u0327': '\\c',
};

/**
 * Text made safe for LaTeX: special characters escaped, symbols and Greek letters as math,
 * accented letters as accents, line breaks as spaces, anything else as [U+XXXX].
 */
export function texEscape(s) {
  let out = '';
  for (const ch of String(s ?? '').replace(/[\r\n]+/g, ' ')) {
    if (TEX_ESCAPES[ch]) out += TEX_ESCAPES[ch];
    else if (TEX_SYMBOLS[ch]) out += TEX_SYMBOLS[ch];
    else if (ch >= ' ' && ch <= '~') out += ch;
    else {
      const [base, ...marks] = ch.normalize('NFD');
      if (base >= 'A' && base <= 'z' && /[A-Za-z]/.test(base) && marks.length && marks.every((m) => TEX_ACCENTS[m] || m === '\u0328')) {
        // Accents from the inside out; the ogonek (which needs T1 fonts) is left out.
        out += marks.filter((m) => TEX_ACCENTS[m]).reduce((acc, m) => `${TEX_ACCENTS[m]}{${acc}}`, base === 'i' || base === 'j' ? `\\${base}` : base);
      } else out += `\\texttt{[U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]}`;
    }
  }
  return out;
}

/** A number as math-mode TeX: \frac{1}{3} for an exact fraction, else 6 significant digits. */
export function texNumber(v) {
  if (typeof v === 'string') {
    const f = parseRational(v);
    if (f) return f.toTeX();
  }
  const x = numberOf(v);
  if (x === null) return `\\text{${texEscape(v)}}`;
  if (x === Infinity) return '\\infty';
  if (x === -Infinity) return '-\\infty';
  if (Number.isNaN(x)) return '\\mathrm{NaN}';
  const s = String(Number(x.toPrecision(6)));
  const m = /^(-?[\d.]+)e([+-]\d+)$/.exec(s);
  return m ? `${m[1]} \\times 10^{${Number(m[2])}}` : s;
}

function texCell(v) {
  if (typeof v !== 'number' && numberOf(v) === null) return texEscape(v);
  return `$${texNumber(v)}$`;
}

/**
 * LaTeX that compiles where pasted into a document's body: a matrix as \[ \begin{bmatrix} …
 * \end{bmatrix} \] (needs \usepackage{amsmath}), a table as a tabular.
 */
export function toLaTeX(d) {
  const { n, width, at } = shape(d);
  if (d.kind === 'matrix') {
    const comment = [];
    const plain = (l) => String(l).replace(/[\r\n]+/g, ' ');
    if (d.rowLabels) comment.push(`rows: ${d.rowLabels.map(plain).join(', ')}`);
    if (d.colLabels) comment.push(`columns: ${d.colLabels.map(plain).join(', ')}`);
    const cols = Math.max(0, ...Array.from({ length: n }, (_, i) => width(i)));
    const lines = [];
    if (comment.length) lines.push(`% ${comment.join('; ')}`);
    lines.push('% needs \\usepackage{amsmath}');
    // amsmath's matrices take 10 columns unless told otherwise.
    if (cols > 10) lines.push(`\\setcounter{MaxMatrixCols}{${cols}}`);
    lines.push('\\[', '\\begin{bmatrix}');
    const body = [];
    for (let i = 0; i < n; i++) body.push(`  ${Array.from({ length: width(i) }, (_, j) => texNumber(at(i, j))).join(' & ')}`);
    lines.push(body.join(' \\\\\n'), '\\end{bmatrix}', '\\]');
    return `${lines.join('\n')}\n`;
  }
  const widest = Math.max(0, ...Array.from({ length: n }, (_, i) => width(i)));
  const ncols = Math.max(d.colLabels ? d.colLabels.length : 0, widest) + (d.rowLabels ? 1 : 0);
  const align = Array.from({ length: ncols }, (_, j) => (j === 0 ? 'l' : 'r')).join(' ');
  const lines = notesOf(d).map(([k, v]) => `% ${k}: ${String(v).replace(/[\r\n]+/g, ' ')}`);
  lines.push(`\\begin{tabular}{${align}}`, '\\hline');
  if (d.colLabels) lines.push(`${[...(d.rowLabels ? [d.corner ?? ''] : []), ...d.colLabels].map(texEscape).join(' & ')} \\\\`, '\\hline');
  for (let i = 0; i < n; i++) {
    const cells = d.rowLabels ? [texEscape(d.rowLabels[i])] : [];
    for (let j = 0, w = width(i); j < w; j++) cells.push(texCell(at(i, j)));
    lines.push(`${cells.join(' & ')} \\\\`);
  }
  lines.push('\\hline', '\\end{tabular}');
  return `${lines.join('\n')}\n`;
}

/** The formats, with what a file of each is called and typed as. */
export const FORMATS = {
  CSV: { write: toCSV, ext: 'csv', mime: 'text/csv' },
  TSV: { write: toTSV, ext: 'tsv', mime: 'text/tab-separated-values' },
  JSON: { write: toJSON, ext: 'json', mime: 'application/json' },
  LaTeX: { write: toLaTeX, ext: 'tex', mime: 'application/x-tex' },
};

/** Number of cells of the data (what decides whether the page or its worker writes it). */
export function cellCount(d) {
  if (d.block) return d.block.rows * d.block.cols;
  return d.rows.reduce((s, r) => s + r.length, 0);
}
