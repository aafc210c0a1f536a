// lib/controller.js — the small observable store a section's controller keeps its state in, so
// that the logic of a section (what each user action does to the state, what it asks of the
// engine) runs without a page: in Node, a test calls the controller's methods and reads its
// state and the events it emitted; on the page, the view subscribes and draws.
//
//   const store = new Store({ count: 0 });
//   const off = store.subscribe((event, state) => draw(event, state));
//   store.set({ count: 1 });                     // emits {type: 'change', keys: ['count']}
//   store.emit({ type: 'note', text: 'hello' }); // any event of the section's own
//
// No DOM, no timers: listeners are called at once, in the order they subscribed.

export class Store {
  /** @param {object} [state]  the initial state (kept, not copied) */
  constructor(state = {}) {
    this.state = state;
    this.listeners = new Set();
  }

  /** The current state (the object itself: read it, change it through set). */
  get() {
    return this.state;
  }

  /** Assigns the fields of `patch` and emits `event` (by default which fields changed). */
  set(patch, event = { type: 'change', keys: Object.keys(patch) }) {
    Object.assign(this.state, patch);
    this.emit(event);
  }

  /** Calls every listener with (event, state). A listener that throws does not stop the others. */
  emit(event) {
    let failure = null;
    for (const fn of [...this.listeners]) {
      try {
        fn(event, this.state);
      } catch (e) {
        failure ??= e;
      }
    }
    if (failure) throw failure;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
