// sections/channel/loading.js — how a block comes into the channel grid: a paste (taken by the
// controller, or read in the data worker when it is long, with progress and Cancel) and a CSV/TSV
// file, picked or dropped on the matrix (always in the data worker, engine/data-client.js). What
// a block does to the grid, and the message of one that cannot be read, are the controller's
// (controller.js paste, pasteBlock, loadFileBlock, readFailed).
//
//   const loading = installLoading(root, els, ctl, { onBusy })
//   loading.busy        a paste or a file is being read
//   loading.cancel()    stops the reading

import { h, replace } from '../../lib/dom.js';
import { isAbort } from '../../engine/client.js';
import { dataWorker } from '../../engine/data-client.js';

/** Pastes longer than this (characters) are read in the data worker. */
const PASTE_IN_WORKER = 20_000;

export function installLoading(root, els, ctl, { onBusy }) {
  let reading = null; // the data worker's job while a paste or a file is read

  // Reads a long paste or a file in the data worker, showing its progress and a Cancel button.
  function readInWorker(source, name, done) {
    reading?.cancel();
    const bar = h('progress', { max: '1', value: '0', 'aria-label': `Reading ${name}` });
    const text = h('span', { text: `Reading ${name}…` });
    const progress = (f) => {
      bar.value = f;
      text.textContent = `Reading ${name}… ${Math.round(f * 100)}%`;
    };
    const job = dataWorker.read(source, { onProgress: progress });
    reading = job;
    onBusy();
    replace(els.loading, bar, text, h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-load' }, 'data-testid': 'cancel-load', text: 'Cancel' }));
    els.loading.hidden = false;
    job.promise.then(
      (block) => {
        if (reading !== job) return;
        reading = null;
        try {
          done(block); // before hiding the progress: the grid reads its box's size first
        } finally {
          els.loading.hidden = true;
          onBusy(); // a failure of done (a page error) must not leave the section busy for ever
        }
      },
      (e) => {
        if (reading !== job) return;
        reading = null;
        els.loading.hidden = true;
        ctl.readFailed(isAbort(e) ? null : e.message, isAbort(e) ? `Reading ${name} was cancelled.` : '');
        onBusy();
      },
    );
  }

  root.addEventListener('paste', (e) => {
    const d = e.target.dataset;
    if (!d || !d.grid) return;
    const text = e.clipboardData?.getData('text/plain') ?? '';
    const at = { grid: d.grid, kind: d.kind, r: Number(d.r), c: Number(d.c) };
    if (d.grid === 'channel' && d.kind === 'cell' && text.length > PASTE_IN_WORKER && /[\t\n,; ]/.test(text.trim())) {
      e.preventDefault();
      readInWorker(text, 'the pasted block', (block) => ctl.pasteBlock(at.r, at.c, block));
      return;
    }
    // Else the browser's own paste of one value into the cell.
    if (ctl.paste(at, text)) e.preventDefault();
  });

  // A CSV/TSV file, picked or dropped on the matrix: it replaces the channel (labels included).
  function loadFile(file) {
    if (!file) return;
    readInWorker(file, file.name || 'the file', (block) => ctl.loadFileBlock(file.name, block));
  }
  els.file.addEventListener('change', () => {
    loadFile(els.file.files?.[0]);
    els.file.value = '';
  });
  const card = root.querySelector('#matrix-card');
  card.addEventListener('dragover', (e) => {
    if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return;
    e.preventDefault();
    card.classList.add('drop-target');
  });
  card.addEventListener('dragleave', (e) => { if (!card.contains(e.relatedTarget)) card.classList.remove('drop-target'); });
  card.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files?.[0];
    card.classList.remove('drop-target');
    if (!file) return;
    e.preventDefault();
    loadFile(file);
  });

  return {
    get busy() { return !!reading; },
    cancel() { reading?.cancel(); },
  };
}
