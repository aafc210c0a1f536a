// export.js — copying any matrix or result table as CSV, JSON or LaTeX, and saving plots as SVG
// or PNG. Sections build an "Export" menu with exportMenu(getter) and get plot buttons for free
// (observePlots decorates every <figure class="plot"> that appears in the page).
//
// Data shape, from the getter:  {kind: 'matrix' | 'table', rows, rowLabels?, colLabels?}
//   rows: (number | string)[][]; strings are entries as typed ("1/3") or text.
//
// Formats (what the tests check):
//   CSV   RFC 4180: fields with , " or a line break are quoted ("" inside); lines end in \n.
//         With colLabels a header line comes first; with rowLabels each line starts with its
//         label (the header then starts with an empty field). Numbers in full precision; in a
//         matrix, typed fractions as their decimal value (a table's text cells stay as they are). Text that a spreadsheet would run as a formula
//         (starting with = + - @ or a tab) is prefixed with ' (numbers are never touched).
//   JSON  matrix: {"rowLabels"?: [...], "colLabels"?: [...], "rows": [[...], ...]} with numbers;
//         table:  an array of objects, one per row, keyed by the column labels.
//   LaTeX matrix: \begin{bmatrix} a & b \\ c & d \end{bmatrix} (fractions as \frac{1}{3}, other
//         numbers to 6 significant digits), preceded by a % comment naming rows and columns;
//         table: \begin{tabular}{l r ...} with \hline rules, text escaped for LaTeX.
// All of it is text built from data; nothing is ever parsed as HTML.

import { parseNumber, parseRational } from './input/number.js';

// ---------------------------------------------------------------- formats

function asNumber(v) {
  if (typeof v === 'number') return v;
  const r = parseNumber(v);
  return 'value' in r ? r.value : null;
}

function csvField(v) {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : v < 0 ? '-Infinity' : 'NaN';
  let s = String(v ?? '');
  if (/^[=+\-@\t\r]/.test(s) && asNumber(s) === null) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvValue = (v) => {
  const x = asNumber(v);
  return x === null ? v : x;
};

/** CSV text of a matrix or table (see the header comment). */
export function toCSV({ kind, rows, rowLabels, colLabels }) {
  const lines = [];
  // A matrix's entries are numbers (typed fractions become decimals); a table's text stays text.
  const value = kind === 'table' ? (v) => v : csvValue;
  if (colLabels) lines.push([...(rowLabels ? [''] : []), ...colLabels].map(csvField).join(','));
  rows.forEach((row, i) => lines.push([...(rowLabels ? [rowLabels[i]] : []), ...row.map(value)].map(csvField).join(',')));
  return `${lines.join('\n')}\n`;
}

const jsonValue = (v) => {
  const x = asNumber(v);
  if (x === null) return String(v);
  return Number.isFinite(x) ? x : String(x); // JSON has no Infinity
};

/** JSON text of a matrix ({rowLabels?, colLabels?, rows}) or table (array of row objects). */
export function toJSON({ kind, rows, rowLabels, colLabels }) {
  if (kind === 'table') {
    const keys = colLabels ?? rows[0]?.map((_, j) => `column ${j + 1}`) ?? [];
    const objs = rows.map((row, i) => {
      const o = {};
      if (rowLabels) o[''] = rowLabels[i];
      row.forEach((v, j) => { o[keys[j] ?? `column ${j + 1}`] = typeof v === 'number' ? jsonValue(v) : v; });
      return o;
    });
    return `${JSON.stringify(objs, null, 2)}\n`;
  }
  const parts = [];
  if (rowLabels) parts.push(`  "rowLabels": ${JSON.stringify(rowLabels)}`);
  if (colLabels) parts.push(`  "colLabels": ${JSON.stringify(colLabels)}`);
  parts.push(`  "rows": [\n${rows.map((r) => `    ${JSON.stringify(r.map(jsonValue))}`).join(',\n')}\n  ]`);
  return `{\n${parts.join(',\n')}\n}\n`;
}

const TEX_ESCAPES = { '\\': '\\textbackslash{}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_', '{': '\\{', '}': '\\}', '~': '\\textasciitilde{}', '^': '\\textasciicircum{}' };

/** Text made safe for LaTeX (special characters escaped, line breaks as spaces). */
export function texEscape(s) {
  return String(s ?? '').replace(/[\\&%$#_{}~^]/g, (c) => TEX_ESCAPES[c]).replace(/[\r\n]+/g, ' ');
}

function texNumber(v) {
  if (typeof v === 'string' && v.includes('/')) {
    const f = parseRational(v);
    if (f) return f.toTeX();
  }
  const x = asNumber(v);
  if (x === null) return `\\text{${texEscape(v)}}`;
  if (x === Infinity) return '\\infty';
  if (x === -Infinity) return '-\\infty';
  const s = String(Number(x.toPrecision(6)));
  const m = /^(-?[\d.]+)e([+-]\d+)$/.exec(s);
  return m ? `${m[1]} \\times 10^{${Number(m[2])}}` : s;
}

function texCell(v) {
  if (typeof v === 'number') return texNumber(v);
  return asNumber(v) === null ? texEscape(v) : texNumber(v);
}

/** LaTeX: a bmatrix for a matrix, a tabular for a table. */
export function toLaTeX({ kind, rows, rowLabels, colLabels }) {
  if (kind === 'matrix') {
    const comment = [];
    if (rowLabels) comment.push(`rows: ${rowLabels.map((l) => String(l).replace(/[\r\n]+/g, ' ')).join(', ')}`);
    if (colLabels) comment.push(`columns: ${colLabels.map((l) => String(l).replace(/[\r\n]+/g, ' ')).join(', ')}`);
    return `${comment.length ? `% ${comment.join('; ')}\n` : ''}\\begin{bmatrix}\n${rows.map((r) => `  ${r.map(texNumber).join(' & ')}`).join(' \\\\\n')}\n\\end{bmatrix}\n`;
  }
  const ncols = Math.max(colLabels ? colLabels.length : 0, ...rows.map((r) => r.length)) + (rowLabels ? 1 : 0);
  const align = Array.from({ length: ncols }, (_, j) => (j === 0 ? 'l' : 'r')).join(' ');
  const lines = [`\\begin{tabular}{${align}}`, '\\hline'];
  if (colLabels) lines.push(`${[...(rowLabels ? [''] : []), ...colLabels].map(texEscape).join(' & ')} \\\\`, '\\hline');
  rows.forEach((row, i) => lines.push(`${[...(rowLabels ? [texEscape(rowLabels[i])] : []), ...row.map(texCell)].join(' & ')} \\\\`));
  lines.push('\\hline', '\\end{tabular}');
  return `${lines.join('\n')}\n`;
}

export const FORMATS = { CSV: toCSV, JSON: toJSON, LaTeX: toLaTeX };

// ---------------------------------------------------------------- clipboard, downloads

/** Copies text: the async clipboard API, else a hidden textarea and execCommand('copy'). */
export async function copyText(text) {
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* not allowed here (no focus, no permission): fall back */ }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.setAttribute('aria-hidden', 'true');
  ta.className = 'copy-buffer';
  document.body.append(ta);
  ta.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  ta.remove();
  return ok;
}

/** Saves a Blob as a download named `filename` (via a short-lived blob: URL). */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function slug(s) {
  return String(s || 'export').toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'export';
}

// ---------------------------------------------------------------- the Export menu

function status(el, text) {
  el.textContent = text;
  clearTimeout(el._timer);
  el._timer = setTimeout(() => { el.textContent = ''; }, 4000);
}

let menus = 0;

/**
 * An "Export" menu (a <details>, so keyboard and screen readers know it) whose items copy the
 * data returned by `getter()` as CSV, JSON or LaTeX. getter may return null when there is
 * nothing to export (the menu then says so).
 * @param {() => ({kind: 'matrix'|'table', rows: any[][], rowLabels?: string[], colLabels?: string[]} | null)} getter
 * @param {{what: string, testid?: string, label?: string}} opts   what: "channel matrix", for
 *   accessible names; label: the visible summary text (default "Export")
 */
export function exportMenu(getter, { what, testid, label = 'Export' } = {}) {
  const id = `export-${++menus}`;
  const details = document.createElement('details');
  details.className = 'export-menu';
  if (testid) details.dataset.testid = testid;
  const summary = document.createElement('summary');
  summary.textContent = label;
  summary.setAttribute('aria-label', `Export the ${what}`);
  const list = document.createElement('div');
  list.className = 'export-items';
  list.setAttribute('role', 'group');
  list.setAttribute('aria-label', `Copy the ${what}`);
  const out = document.createElement('span');
  out.className = 'export-status';
  out.setAttribute('role', 'status');
  out.id = `${id}-status`;
  for (const [name, fmt] of Object.entries(FORMATS)) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'small';
    b.textContent = `Copy ${name}`;
    b.dataset.format = name;
    if (testid) b.dataset.testid = `${testid}-${name.toLowerCase()}`;
    b.setAttribute('aria-label', `Copy the ${what} as ${name}`);
    b.addEventListener('click', async () => {
      let data;
      try {
        data = getter();
      } catch (e) {
        status(out, `Nothing to export: ${e.message}`);
        return;
      }
      if (!data || !data.rows || !data.rows.length) {
        status(out, 'Nothing to export yet.');
        return;
      }
      const ok = await copyText(fmt(data));
      status(out, ok ? `Copied as ${name}.` : 'The browser refused to copy.');
    });
    list.append(b);
  }
  list.append(out);
  details.append(summary, list);
  // Escape closes the menu and gives focus back to its summary.
  details.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && details.open) {
      details.open = false;
      summary.focus();
    }
  });
  return details;
}

// ---------------------------------------------------------------- plots

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * A standalone SVG document for a plot: explicit size, white background and fonts as attributes
 * (the page's stylesheet does not travel with the file).
 * @param {SVGSVGElement} svg
 */
export function standaloneSVG(svg) {
  const clone = svg.cloneNode(true);
  const vb = (svg.getAttribute('viewBox') || '').split(/[\s,]+/).map(Number);
  const [x, y, w, h] = vb.length === 4 && vb.every(Number.isFinite) ? vb : [0, 0, svg.clientWidth || 560, svg.clientHeight || 300];
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('width', String(w));
  clone.setAttribute('height', String(h));
  clone.setAttribute('font-family', 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif');
  clone.removeAttribute('class');
  const bg = document.createElementNS(SVG_NS, 'rect');
  for (const [k, v] of Object.entries({ x, y, width: w, height: h, fill: '#ffffff' })) bg.setAttribute(k, String(v));
  clone.insertBefore(bg, clone.firstChild);
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}\n`, width: w, height: h };
}

/** PNG Blob of a plot, drawn at `scale` × its SVG size on a canvas. */
export async function plotPNG(svg, scale = 2) {
  const { text, width, height } = standaloneSVG(svg);
  const img = new Image();
  // A data: URL (the CSP allows img-src data:, not blob:); it does not taint the canvas.
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
}

/** Adds "SVG" and "PNG" download buttons to a <figure class="plot">. Idempotent. */
export function decoratePlot(fig) {
  if (fig.querySelector(':scope > .plot-actions')) return;
  const svg = fig.querySelector('svg');
  if (!svg) return;
  const caption = fig.querySelector('figcaption')?.textContent || svg.getAttribute('aria-label') || 'plot';
  const bar = document.createElement('div');
  bar.className = 'plot-actions';
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', `Save the plot “${caption}”`);
  const msg = document.createElement('span');
  msg.className = 'export-status';
  msg.setAttribute('role', 'status');
  for (const kind of ['SVG', 'PNG']) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'small';
    b.textContent = kind;
    b.dataset.save = kind.toLowerCase();
    b.setAttribute('aria-label', `Save the plot “${caption}” as ${kind}`);
    b.addEventListener('click', async () => {
      const current = fig.querySelector('svg');
      try {
        if (kind === 'SVG') download(new Blob([standaloneSVG(current).text], { type: 'image/svg+xml' }), `${slug(caption)}.svg`);
        else download(await plotPNG(current), `${slug(caption)}.png`);
        status(msg, `Saved as ${kind}.`);
      } catch (e) {
        status(msg, `Could not save: ${e.message}`);
      }
    });
    bar.append(b);
  }
  bar.append(msg);
  const cap = fig.querySelector(':scope > figcaption');
  if (cap) cap.after(bar);
  else fig.append(bar);
}

/** Decorates every figure.plot under root, now and whenever one is added. Returns the observer. */
export function observePlots(root = document.body) {
  for (const f of root.querySelectorAll('figure.plot')) decoratePlot(f);
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        if (n.matches('figure.plot')) decoratePlot(n);
        for (const f of n.querySelectorAll('figure.plot')) decoratePlot(f);
      }
    }
  });
  mo.observe(root, { childList: true, subtree: true });
  return mo;
}
