// lib/controller.js — the observable state of a section's controller. A controller (logic, no DOM)
// keeps what its section shows in one store; the view subscribes, draws what changed and forwards
// what people do back to the controller's methods. No DOM: tests/node run the controllers.
//
//   const store = createStore({ status: 'idle', result: null });
//   const stop = store.subscribe((state, changed) => { if (changed.includes('result')) draw(state.result); });
//   store.set({ status: 'done', result: 42 });   // subscribers see changed = ['status', 'result']

/**
 * A store of one state object. set(patch) makes a new state with the patch's keys replaced and
 * calls every subscriber with (state, keys of the patch), in the order they subscribed.
 * @template T
 * @param {T} initial
 */
export function createStore(initial) {
  let state = { ...initial };
  const subscribers = new Set();
  return {
    /** The current state (treat it as read-only: change it with set). */
    get: () => state,
    /** @param {Partial<T>} patch */
    set(patch) {
      state = { ...state, ...patch };
      const changed = Object.keys(patch);
      for (const f of [...subscribers]) f(state, changed);
    },
    /** Calls f(state, changed) after every set; returns the function that unsubscribes it. */
    subscribe(f) {
      subscribers.add(f);
      return () => { subscribers.delete(f); };
    },
  };
}
