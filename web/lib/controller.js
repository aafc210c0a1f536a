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
// Sections whose views draw field by field use createStore, the same store seen as
// (state, changed keys), with a new state object at every set.
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

/**
 * A Store seen as one immutable state: set(patch) makes a new state object with the patch's keys
 * replaced (so an earlier get() is a snapshot) and calls every subscriber with (state, keys of
 * the patch), in the order they subscribed.
 * @template T
 * @param {T} initial
 */
export function createStore(initial) {
  const store = new Store({ ...initial });
  return {
    /** The current state (treat it as read-only: change it with set). */
    get: () => store.state,
    /** @param {Partial<T>} patch */
    set(patch) {
      store.state = { ...store.state, ...patch };
      store.emit({ type: 'change', keys: Object.keys(patch) });
    },
    /** Calls f(state, changed) after every set; returns the function that unsubscribes it. */
    subscribe: (f) => store.subscribe((event, state) => f(state, event.keys)),
  };
}
