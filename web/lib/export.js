// lib/export.js — copying or saving any matrix or result table as CSV, TSV, JSON or LaTeX, and saving
// plots as SVG or PNG. Sections build an "Export" menu with exportMenu(getter) and get plot
// buttons for free (observePlots decorates every <figure class="plot"> that appears in the
// page). The formats themselves, and the data shape getters return, are in export-formats.js;
// an export of more than WORKER_CELLS cells is written by the data worker (engine/data-client.js), so
// that a 2,000 × 2,000 matrix never holds the page's thread.
// All of it is text built from data; nothing is ever parsed as HTML.

import { FORMATS, cellCount } from './export-formats.js';
import { dataWorker } from '../engine/data-client.js';

export { toCSV, toTSV, toJSON, toLaTeX, texEscape, texNumber, numberOf } from './export-formats.js';
export { FORMATS };

/** Exports of more cells than this are written in the data worker. */
export const WORKER_CELLS = 50_000;
/** Exports of more cells than this are offered as files only (too large for a clipboard). */
export const COPY_CELLS = 1_000_000;

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

/** The text of an export: written here, or in the data worker when it is large. */
async function exportText(name, data, as) {
  if (cellCount(data) <= WORKER_CELLS) {
    const text = FORMATS[name].write(data);
    return as === 'blob' ? new Blob([text], { type: `${FORMATS[name].mime};charset=utf-8` }) : text;
  }
  return dataWorker.write(name, data, as).promise;
}

/**
 * An "Export" menu (a <details>, so keyboard and screen readers know it) whose items copy the
 * data returned by `getter()` as CSV, TSV, JSON or LaTeX, or save it as a file of that format.
 * getter may return null when there is nothing to export (the menu then says so).
 * @param {() => (object | null)} getter   data in the shape of export-formats.js
 * @param {{what: string, testid?: string, label?: string, file?: string}} opts   what: "channel
 *   matrix", for accessible names and the file name (file overrides it); label: the visible
 *   summary text (default "Export")
 */
export function exportMenu(getter, { what, testid, label = 'Export', file } = {}) {
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
  list.setAttribute('aria-label', `Copy or save the ${what}`);
  const out = document.createElement('span');
  out.className = 'export-status';
  out.setAttribute('role', 'status');
  out.id = `${id}-status`;
  const base = slug(file ?? what);
  const get = () => {
    let data;
    try {
      data = getter();
    } catch (e) {
      status(out, `Nothing to export: ${e.message}`);
      return null;
    }
    const empty = !data || (data.block ? !data.block.rows : !data.rows || !data.rows.length);
    if (empty) {
      status(out, 'Nothing to export yet.');
      return null;
    }
    return data;
  };
  const button = (text, name, kind, aria) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'small';
    b.textContent = text;
    b.dataset.format = name;
    b.dataset.action = kind;
    if (testid) b.dataset.testid = kind === 'copy' ? `${testid}-${name.toLowerCase()}` : `${testid}-${name.toLowerCase()}-file`;
    b.setAttribute('aria-label', aria);
    return b;
  };
  for (const name of Object.keys(FORMATS)) {
    const row = document.createElement('div');
    row.className = 'export-row';
    const copy = button(`Copy ${name}`, name, 'copy', `Copy the ${what} as ${name}`);
    const save = button('Save', name, 'save', `Save the ${what} as a ${name} file`);
    save.title = `${base}.${FORMATS[name].ext}`;
    copy.addEventListener('click', async () => {
      const data = get();
      if (!data) return;
      if (cellCount(data) > COPY_CELLS) {
        status(out, `Too large to copy (${cellCount(data).toLocaleString('en')} cells): save it as a file.`);
        return;
      }
      try {
        const ok = await copyText(await exportText(name, data, 'text'));
        status(out, ok ? `Copied as ${name}.` : 'The browser refused to copy.');
      } catch (e) {
        status(out, `Could not export: ${e.message}`);
      }
    });
    save.addEventListener('click', async () => {
      const data = get();
      if (!data) return;
      try {
        download(await exportText(name, data, 'blob'), `${base}.${FORMATS[name].ext}`);
        status(out, `Saved ${base}.${FORMATS[name].ext}.`);
      } catch (e) {
        status(out, `Could not export: ${e.message}`);
      }
    });
    row.append(copy, save);
    list.append(row);
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
