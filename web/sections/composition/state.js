// sections/composition/state.js — the "Composition" section as data: the list of events (drafts of
// lib/accounting-events.js), what is asked (ε at a given δ, or δ at a given ε), reading them, and
// the state of a shared link. Pure: tests/node/composition.test.mjs runs it in Node.

import { parseBounded } from '../../input/number.js';
import { MECHANISMS, MAX_EVENTS, PRESETS, checkDraft, newDraft } from '../../lib/accounting-events.js';

/** Longest text of one field kept from a shared link (a channel's rows may be long). */
const MAX_TEXT = 20_000;

export const DEFAULTS = Object.freeze({ preset: 'counting', ask: 'epsilon', delta: '1e-5', epsilon: '1' });

/** The state of a preset (or of the default one). */
export function presetState(name = DEFAULTS.preset) {
  const p = PRESETS[name] ?? PRESETS[DEFAULTS.preset];
  return { drafts: p.drafts(), ask: 'epsilon', delta: p.delta, epsilon: DEFAULTS.epsilon, preset: Object.hasOwn(PRESETS, name) ? name : DEFAULTS.preset };
}

export function createState() {
  return presetState();
}

/** What a shared link keeps of the state. */
export function stateForURL(s) {
  return {
    events: s.drafts.map((d) => ({ mechanism: d.mechanism, params: { ...d.params }, count: d.count, ...(d.rate === null ? {} : { rate: d.rate }) })),
    ask: s.ask, delta: s.delta, epsilon: s.epsilon, ...(s.preset ? { preset: s.preset } : {}),
  };
}

const text = (v) => (typeof v === 'string' || typeof v === 'number') && String(v).length <= MAX_TEXT;

/**
 * A clean state from an untrusted one (a shared link): throws an Error naming what is wrong with
 * the shape; values that only fail to read as numbers are kept as typed (the page says so beside
 * the field, as when a person types them).
 */
export function checkState(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) throw new Error('the state must be an object');
  const next = createState();
  if (!Array.isArray(s.events) || s.events.length === 0) throw new Error('events: a non-empty list is needed');
  if (s.events.length > MAX_EVENTS) throw new Error(`events: at most ${MAX_EVENTS}`);
  next.drafts = s.events.map((e, i) => {
    if (!e || typeof e !== 'object' || !Object.hasOwn(MECHANISMS, e.mechanism)) throw new Error(`event ${i + 1}: unknown mechanism`);
    const params = {};
    for (const k of MECHANISMS[e.mechanism].params) if (e.params && text(e.params[k])) params[k] = String(e.params[k]);
    if (e.mechanism === 'channel' && e.params && text(e.params.channel)) params.channel = String(e.params.channel);
    return newDraft(e.mechanism, params, text(e.count) ? String(e.count) : '1', text(e.rate) ? String(e.rate) : null);
  });
  if (s.ask === 'epsilon' || s.ask === 'delta') next.ask = s.ask;
  if (text(s.delta)) next.delta = String(s.delta);
  if (text(s.epsilon)) next.epsilon = String(s.epsilon);
  next.preset = typeof s.preset === 'string' && Object.hasOwn(PRESETS, s.preset) ? s.preset : null;
  return next;
}

/** δ of the question: in (0, 1). */
export function readDelta(t) {
  return parseBounded(t, { min: 0, max: 1, maxOpen: true, what: 'δ' });
}

/** ε of the question: ≥ 0. */
export function readEpsilon(t) {
  return parseBounded(t, { min: 0, what: 'ε' });
}

/**
 * The events and the question as the engine takes them: {events, ask, value} or the problems
 * {errors: [{index, field, message}], questionError} (index: the event's place; -1 for the list).
 */
export function readState(s) {
  const errors = [];
  const events = [];
  if (!s.drafts.length) errors.push({ index: -1, field: 'events', message: 'add at least one event' });
  s.drafts.forEach((d, i) => {
    const r = checkDraft(d);
    if (r.errors) for (const e of r.errors) errors.push({ index: i, ...e });
    else events.push(r.event);
  });
  const q = s.ask === 'epsilon' ? readDelta(s.delta) : readEpsilon(s.epsilon);
  const questionError = 'error' in q ? q.error : null;
  if (errors.length || questionError) return { errors, questionError };
  return { events, ask: s.ask, value: q.value, errors: [], questionError: null };
}
