// sections/channel/loading.js — how a block comes into the channel grid: a paste (read here, or
// in the data worker when it is long, with progress and Cancel) and a CSV/TSV file, picked or
// dropped on the matrix (always in the data worker, engine/data-client.js). A block that cannot
// be read leaves a message (message) that the section lists with the input's problems.
//
//   const loading = installLoading(root, els, { state, markEdited, rerenderInputs, showValidation, onBusy, record })
//   (record(null, snapshot) puts the state before a paste or a file in the Undo history)
//   loading.busy        a paste or a file is being read
//   loading.message     why the last paste could not be read, or null; clearMessage() forgets it
//   loading.cancel()    stops the reading

import { h, replace } from '../../lib/dom.js';
import { isAbort } from '../../engine/client.js';
import { dataWorker } from '../../engine/data-client.js';
import * as S from './state.js';

/** Pastes longer than this (characters) are read in the data worker. */
const PASTE_IN_WORKER = 20_000;

export function installLoading(root, els, { state, markEdited, rerenderInputs, showValidation, onBusy, record, breakRun }) {
  let reading = null; // the data worker's job while a paste or a file is read
  let message = null;

  // A block read (here or in the data worker) goes into the grid at (r, c); c −1 is the prior.
  // `before` is the state before it (recorded for Undo when the paste went in).
  function applyPasted(res, before = null) {
    if (res.ok) {
      if (before) record(null, before);
      message = null;
      // The grid first: it reads the scroll position and size of its box, which a write made
      // before it in the same task would make the browser lay the page out to answer.
      if (res.how === 'new') els.channelWrap.scrollTo(0, 0);
      rerenderInputs();
      els.pasteNote.textContent = res.how ? S.pasteNote(res, state) : res.decimalComma ? 'Read as decimal commas (cells were separated by tabs, semicolons or spaces, or quoted): 0,5 → 0.5.' : '';
    } else {
      message = res.error;
      showValidation();
    }
  }

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
          done(block); // before hiding the progress: see applyPasted
        } finally {
          els.loading.hidden = true;
          onBusy(); // a failure of done (a page error) must not leave the section busy for ever
        }
      },
      (e) => {
        if (reading !== job) return;
        reading = null;
        els.loading.hidden = true;
        message = isAbort(e) ? null : e.message;
        els.pasteNote.textContent = isAbort(e) ? `Reading ${name} was cancelled.` : '';
        showValidation();
        onBusy();
      },
    );
  }

  root.addEventListener('paste', (e) => {
    const d = e.target.dataset;
    if (!d || !d.grid) return;
    const text = e.clipboardData?.getData('text/plain') ?? '';
    if (!/[\t\n,; ]/.test(text.trim())) return; // one value: the browser's own paste
    const r = Number(d.r);
    const c = Number(d.c);
    if (d.grid === 'channel' && d.kind === 'cell' && text.length > PASTE_IN_WORKER) {
      e.preventDefault();
      readInWorker(text, 'the pasted block', (block) => {
        if ('error' in block) {
          applyPasted(block);
          return;
        }
        const before = S.snapshot(state);
        markEdited();
        applyPasted(S.applyBlock(state, r, c, block), before);
      });
      return;
    }
    const before = S.snapshot(state);
    breakRun();
    let res = { error: 'not here' };
    if (d.grid === 'channel') {
      if (d.kind === 'label') res = S.pasteLabels(state, r === -1 ? 'col' : 'row', r === -1 ? c : r, text);
      else res = S.pasteIntoChannel(state, r, d.kind === 'prior' ? -1 : c, text);
      if (res.ok && d.kind !== 'prior') markEdited();
    } else if (d.grid === 'gain' && d.kind === 'gain') res = S.pasteIntoGain(state, r, c, text);
    if (res.ok) {
      e.preventDefault();
      applyPasted(res, before);
    } else if (d.kind !== 'label' && /\n/.test(text.trim())) {
      // A block that cannot be read: say why rather than paste it into one cell.
      e.preventDefault();
      applyPasted(res);
    }
    // Else one line the grid cannot split (a lone "0,5", say): the browser pastes it into the
    // cell, whose own message then says what is wrong with it.
  });

  // A CSV/TSV file, picked or dropped on the matrix: it replaces the channel (labels included).
  function loadFile(file) {
    if (!file) return;
    readInWorker(file, file.name || 'the file', (block) => {
      if ('error' in block) {
        applyPasted({ error: `${file.name}: ${block.error}` });
        return;
      }
      const before = S.snapshot(state);
      S.loadBlock(state, block);
      applyPasted({ ok: true, decimalComma: block.decimalComma }, before);
    });
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
    get message() { return message; },
    clearMessage() { message = null; },
    cancel() { reading?.cancel(); },
  };
}
