// engine/data-worker.js — the page's second worker. It reads pasted text and CSV/TSV files into
// matrices (input/grid.js readMatrix) and writes large exports (lib/export-formats.js), so that a
// 2,000 × 2,000 matrix never holds the page's thread; it runs no wasm, so it never waits behind
// a computation of the engine's worker (worker.js).
//
//   page → worker  {id, op: 'read', text?: string, file?: Blob}
//                  {id, op: 'samples', text?: string, file?: Blob}   a table of samples
//                                                            (input/samples.js readSamples)
//                  {id, op: 'write', format: 'CSV'|'TSV'|'JSON'|'LaTeX', data, as: 'text'|'blob'}
//   worker → page  {id, type: 'progress', fraction}          at most ten a second
//                  {id, type: 'result', value}               a block (buffers transferred; with its
//                                                            scanRows as `scan`), text or a Blob
//                  {id, type: 'error', error}

import { readMatrix } from '../input/grid.js';
import { readSamples } from '../input/samples.js';
import { scanRows } from '../input/matrix.js';
import { FORMATS } from '../lib/export-formats.js';

const REPORT_EVERY_MS = 100;

async function read(id, { text, file }) {
  const s = typeof text === 'string' ? text : await file.text();
  let last = 0;
  const onProgress = (fraction) => {
    const now = Date.now();
    if (now - last < REPORT_EVERY_MS) return;
    last = now;
    self.postMessage({ id, type: 'progress', fraction });
  };
  const b = readMatrix(s, { onProgress });
  if ('error' in b) return { error: b.error };
  // The validation's pass over the values, here rather than on the page's thread.
  b.scan = scanRows(b.data, b.rows, b.cols, b.lengths);
  return { value: b, transfer: [b.data.buffer, b.texts.index.buffer, b.scan.rowSums.buffer, b.scan.bad.buffer] };
}

async function samples(id, { text, file }) {
  const s = typeof text === 'string' ? text : await file.text();
  let last = 0;
  const b = readSamples(s, {
    onProgress: (fraction) => {
      const now = Date.now();
      if (now - last < REPORT_EVERY_MS) return;
      last = now;
      self.postMessage({ id, type: 'progress', fraction });
    },
  });
  if ('error' in b) return { error: b.error };
  const transfer = [];
  if (ArrayBuffer.isView(b.secrets)) transfer.push(b.secrets.buffer);
  if (b.observations.data) transfer.push(b.observations.data.buffer);
  return { value: b, transfer };
}

function write({ format, data, as }) {
  const f = FORMATS[format];
  if (!f) return { error: `unknown format ${format}` };
  const text = f.write(data);
  return { value: as === 'blob' ? new Blob([text], { type: `${f.mime};charset=utf-8` }) : text };
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (!msg || typeof msg.id !== 'number') return;
  let out;
  try {
    out = msg.op === 'read' ? await read(msg.id, msg) : msg.op === 'samples' ? await samples(msg.id, msg)
      : msg.op === 'write' ? write(msg) : { error: `unknown operation ${msg.op}` };
  } catch (e) {
    out = { error: e && e.message ? e.message : String(e) };
  }
  if ('error' in out) self.postMessage({ id: msg.id, type: 'error', error: out.error });
  else self.postMessage({ id: msg.id, type: 'result', value: out.value }, out.transfer ?? []);
};
