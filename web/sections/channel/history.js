// sections/channel/history.js — the section's Undo: the states before each edit, newest last.
// Pure (no DOM): the view records a snapshot (state.js snapshot) before it changes the state
// and puts the newest back on Undo or Ctrl+Z.
//
// Typing is one edit per field: keys typed one after the other into the same cell record one
// step (the state before the first key), so that Undo takes the whole number back, as a text
// field's own undo would. Steps are kept while their matrices hold at most MAX_ENTRIES entries
// together (a 2,000 × 2,000 paste is 4 million), and at most MAX_STEPS of them.

/** Most entries (summed over the matrices of the steps kept). */
export const MAX_ENTRIES = 12_000_000;
/** Most steps kept. */
export const MAX_STEPS = 100;

export class History {
  constructor({ maxEntries = MAX_ENTRIES, maxSteps = MAX_STEPS } = {}) {
    this.steps = [];
    this.lastKey = null;
    this.maxEntries = maxEntries;
    this.maxSteps = maxSteps;
  }

  /**
   * Records the state before an edit. `key` names a run of edits that count as one (a field being
   * typed into): a second record with the same key is not a new step. null is an edit of its own.
   * @param {() => object} take  makes the snapshot (called only when a step is recorded)
   * @param {string | null} [key]
   */
  record(take, key = null) {
    if (key !== null && key === this.lastKey) return;
    this.lastKey = key;
    this.steps.push(take());
    let entries = this.steps.reduce((n, st) => n + (st.cells?.size ?? 0), 0);
    while (this.steps.length > 1 && (this.steps.length > this.maxSteps || entries > this.maxEntries)) {
      entries -= this.steps[0].cells?.size ?? 0;
      this.steps.shift();
    }
  }

  /** Ends a run of typing (focus moved): the next key typed is a new step. */
  breakRun() {
    this.lastKey = null;
  }

  get canUndo() {
    return this.steps.length > 0;
  }

  /** The state before the last edit, removed from the history; null when there is none. */
  undo() {
    this.lastKey = null;
    return this.steps.pop() ?? null;
  }
}
