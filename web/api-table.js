// api-table.js — questions the page asks of the API table (api.gen.js), as pure functions: the
// worker uses them to route callbacks, tests use them without a browser.

/**
 * Where a callback the caller put at (arg, key) goes, by the table entry `spec` of the function:
 * {arg, key} (key null: the argument itself), or {error}. A key the table declares as a
 * callback stays; a caller's `onProgress` goes to the function's one callback of the table,
 * whatever its name; anything else is refused, naming the callbacks there are.
 */
export function callbackSlot(spec, ns, fn, arg, key) {
  const where = `${ns}.${fn}`;
  if (!spec) return { arg, key }; // not in the table: as the caller wrote it
  const params = spec.params ?? [];
  const options = spec.options ?? {};
  const optionCallbacks = Object.keys(options).filter((k) => options[k]?.kind === 'callback');
  const paramCallbacks = params.map((p, i) => (p.kind === 'callback' ? i : -1)).filter((i) => i >= 0);
  if (key === null) {
    if (paramCallbacks.includes(arg)) return { arg, key: null };
    return { error: `${where}: argument ${arg + 1} is a function, and ${where} takes none there` };
  }
  if (optionCallbacks.includes(key)) return { arg, key };
  if (key === 'onProgress') {
    if (optionCallbacks.length === 1) return { arg, key: optionCallbacks[0] };
    if (!optionCallbacks.length && paramCallbacks.length === 1) return { arg: paramCallbacks[0], key: null };
  }
  const known = [...optionCallbacks, ...(paramCallbacks.length ? ['onProgress'] : [])];
  return { error: `${where}: option ${key} is a function, but ${known.length ? `its callbacks are ${known.join(', ')}` : `${where} takes no callback`}` };
}

