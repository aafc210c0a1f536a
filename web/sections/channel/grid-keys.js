// sections/channel/grid-keys.js — moving in the grids and moving the grid's rows and columns:
// spreadsheet-like arrow keys across the cells of both grids (onGridKey), and reordering the
// channel's rows and columns by the sort menus, by dragging a handle onto another row or column,
// and by Alt+arrows in a label (installReorder). Each reorder is one edit of the controller
// (controller.js reorder, sort, move), which Undo takes back.

/**
 * Spreadsheet-like movement in the tables: arrows across cells, Enter goes down (Shift+Enter
 * up); left and right leave a cell only from its edge, or when its whole text is selected (as it
 * is just after arriving in a cell). In the channel grid the target may be out of view: `channel`
 * (a ChannelGrid) draws it first.
 */
export function onGridKey(root, e, channel = null) {
  const t = e.target;
  const d = t.dataset;
  if (!d || !d.grid || e.altKey || e.ctrlKey || e.metaKey) return;
  let dr = 0;
  let dc = 0;
  if (e.key === 'ArrowUp') dr = -1;
  else if (e.key === 'ArrowDown' || (e.key === 'Enter' && !e.shiftKey)) dr = 1;
  else if (e.key === 'Enter' && e.shiftKey) dr = -1;
  else if (e.key === 'ArrowLeft' && t.selectionStart === 0 && (t.selectionEnd === 0 || t.selectionEnd === t.value.length)) dc = -1;
  else if (e.key === 'ArrowRight' && t.selectionEnd === t.value.length && (t.selectionStart === t.value.length || t.selectionStart === 0)) dc = 1;
  else return;
  const r = Number(d.r);
  const c = Number(d.c);
  let target = null;
  if (d.grid === 'channel' && channel) {
    // Rows −1 (the column labels) to n − 1; columns −2 (label), −1 (prior), then 0 to m − 1.
    const { secrets, observables } = channel.state();
    const n = secrets.length;
    const m = observables.length;
    let rr = r;
    let cc = c;
    if (dr) {
      rr = r + dr;
      if (rr >= n || rr < -1 || (rr === -1 && c < 0)) return;
    } else {
      cc = c + dc;
      if (cc >= m || cc < (r === -1 ? 0 : -2)) return;
    }
    target = channel.reveal(rr, cc);
  } else {
    const inputs = [...root.querySelectorAll(`input[data-grid="${d.grid}"]`)];
    const at = (rr, cc) => inputs.find((el) => Number(el.dataset.r) === rr && Number(el.dataset.c) === cc);
    if (dr) target = at(r + dr, c);
    else {
      const cols = [...new Set(inputs.filter((el) => Number(el.dataset.r) === r).map((el) => Number(el.dataset.c)))].sort((x, y) => x - y);
      const k = cols.indexOf(c) + dc;
      target = k >= 0 && k < cols.length ? at(r, cols[k]) : null;
    }
  }
  if (target) {
    e.preventDefault();
    target.focus();
    target.select();
  }
}

/**
 * The sort menus, the drags of the handles (grid-cells.js dragHandle) and Alt+arrows in a label.
 * Returns {moveByKey(e)}: the section's keydown handler calls it for Alt+arrows (true when the
 * key was for it).
 * @param {{sortRows: HTMLSelectElement, sortCols: HTMLSelectElement, channelTable: HTMLTableElement}} els
 * @param {import('./controller.js').ChannelController} ctl
 * @param {import('./grid-view.js').ChannelGrid} grid
 */
export function installReorder(els, ctl, grid) {
  for (const [sel, kind] of [[els.sortRows, 'row'], [els.sortCols, 'col']]) {
    sel.addEventListener('change', () => {
      const by = sel.value;
      sel.value = '';
      if (by) ctl.sort(kind, by);
    });
  }

  function moveByKey(e) {
    const d = e.target.dataset;
    if (d?.grid !== 'channel' || d.kind !== 'label') return false;
    const r = Number(d.r);
    const c = Number(d.c);
    const step = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (!step) return false;
    const kind = r === -1 && (e.key === 'ArrowLeft' || e.key === 'ArrowRight') ? 'col' : c === -2 && (e.key === 'ArrowUp' || e.key === 'ArrowDown') ? 'row' : null;
    if (!kind) return false;
    e.preventDefault();
    const to = (kind === 'row' ? r : c) + step;
    if (ctl.move(kind, kind === 'row' ? r : c, to)) {
      const el = grid.reveal(kind === 'row' ? to : -1, kind === 'row' ? -2 : to);
      el?.focus();
    }
    return true;
  }

  const table = els.channelTable;
  let dragging = null; // {kind, index} of the handle being dragged
  const dropTarget = (e) => {
    if (!dragging) return null;
    if (dragging.kind === 'row') {
      const tr = e.target.closest?.('tbody tr[data-r]');
      return tr && table.contains(tr) ? { el: tr, index: Number(tr.dataset.r) } : null;
    }
    const th = e.target.closest?.('thead th[data-col]');
    return th && table.contains(th) ? { el: th, index: Number(th.dataset.col) } : null;
  };
  const clearDrop = () => { for (const x of table.querySelectorAll('.drop-target')) x.classList.remove('drop-target'); };
  table.addEventListener('dragstart', (e) => {
    const g = e.target.closest?.('[data-drag]');
    if (!g) return;
    dragging = { kind: g.dataset.drag, index: Number(g.dataset.index) };
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', `${dragging.kind} ${dragging.index}`);
  });
  table.addEventListener('dragover', (e) => {
    const t = dropTarget(e);
    if (!t) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (!t.el.classList.contains('drop-target')) { clearDrop(); t.el.classList.add('drop-target'); }
  });
  table.addEventListener('drop', (e) => {
    const t = dropTarget(e);
    clearDrop();
    if (!t) return;
    e.preventDefault();
    const { kind, index } = dragging;
    dragging = null;
    ctl.move(kind, index, t.index);
  });
  table.addEventListener('dragend', () => { dragging = null; clearDrop(); });
  return { moveByKey };
}
