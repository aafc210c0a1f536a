// engine/api-table.js — what the page asks of the API table (api.gen.js, generated from bindings/), as
// pure functions: the worker routes callbacks with them, the typed client lists the functions,
// tests use them without a browser. The table's shape, as far as the page reads it:
//
//   API.functions = [{ns, name, params: [{name, kind, optional?, fields?: [{name, kind, alias?}]}],
//                     callbacks: [[argument index, option key or null], ...], long}]

/** The table's functions by "ns.name". */
export function indexTable(api) {
  const out = new Map();
  for (const f of api.functions ?? []) out.set(`${f.ns}.${f.name}`, f);
  return out;
}

/** The namespaces of the table, each a list of its functions (table rows). */
export function namespacesOf(api) {
  const out = {};
  for (const f of api.functions ?? []) (out[f.ns] ??= []).push(f);
  return out;
}

/**
 * Where a callback the caller put at (arg, key) goes, by the table row `spec` of the function:
 * {arg, key} (key null: the argument itself), or {error}. A place the table lists stays; the
 * alias of a callback option (measure.shannonCapacity's `progress`) goes to its option; a
 * caller's `onProgress` goes to the function's one callback, wherever the table puts it;
 * anything else is refused, naming the callbacks there are.
 */
export function callbackSlot(spec, ns, fn, arg, key) {
  const where = `${ns}.${fn}`;
  if (!spec) return { arg, key }; // not in the table: as the caller wrote it
  const slots = (spec.callbacks ?? []).map(([a, k]) => ({ arg: a, key: k ?? null }));
  if (slots.some((s) => s.arg === arg && s.key === key)) return { arg, key };
  const aliased = (spec.params?.[arg]?.fields ?? []).find((f) => f.kind === 'callback' && f.alias === key);
  if (aliased) return { arg, key: aliased.name };
  if (key === 'onProgress' && slots.length === 1) return slots[0];
  const known = slots.map((s) => (s.key === null ? `argument ${s.arg + 1}` : `option ${s.key}`));
  const what = key === null ? `argument ${arg + 1}` : `option ${key}`;
  return { error: `${where}: ${what} is a function, but ${known.length ? `its callbacks are: ${known.join(', ')}` : `${where} takes no callback`}` };
}
