// The Composition section's pure parts and the events' text grammar shared with <qif-composition>
// (web/lib/accounting-events.js, web/sections/composition/state.js and plan.js), without a browser.
// Expected values are written here: the engine events each text stands for, the messages a
// course author meets, the shared-link round trip, and the curves built from comparisons given
// here (not computed by the engine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseEvents, formatDrafts, checkDraft, draftOfEvent, readCount, readChannel, newDraft, editDistance, PRESETS, MAX_EVENTS,
} from '../../web/lib/accounting-events.js';
import { createState, presetState, stateForURL, checkState, readState } from '../../web/sections/composition/state.js';
import { SWEEP, answerCall, compareCall, compareDelta, profileCall, profileEnd, boundCurves, profileCurves, curveTable } from '../../web/sections/composition/plan.js';

const events = (text) => {
  const r = parseEvents(text);
  assert.ok(r.drafts, `${text}: ${r.error}`);
  return r.drafts.map((d) => {
    const c = checkDraft(d);
    assert.ok(c.event, `${text}: ${JSON.stringify(c.errors)}`);
    return c.event;
  });
};

test('the grammar: mechanisms, parameters, counts, subsampling and channels', () => {
  assert.deepEqual(events('laplace epsilon=0.1 x10; gaussian sigma=1 x100'), [
    { mechanism: 'laplace', scale: 10, count: 10 },
    { mechanism: 'gaussian', sigma: 1, count: 100 },
  ]);
  // Laplace's ε is Δ/b: with Δ = 2 and ε = 0.5, b = 4.
  assert.deepEqual(events('laplace epsilon=0.5 sensitivity=2'), [{ mechanism: 'laplace', scale: 4, sensitivity: 2, count: 1 }]);
  assert.deepEqual(events('subsampled rate=0.01 of gaussian sigma=1 x10,000'), [
    { mechanism: 'subsampled', rate: 0.01, of: { mechanism: 'gaussian', sigma: 1 }, count: 10000 },
  ]);
  // Numbers in the page's grammar, aliases, new lines between events, × and * as the count's mark.
  assert.deepEqual(events('rr ε=ln 3 ×10\npure eps=1/2 * 3\napproximate epsilon=1 delta=1e-6'), [
    { mechanism: 'randomizedResponse', epsilon: Math.log(3), count: 10 },
    { mechanism: 'pure', epsilon: 0.5, count: 3 },
    { mechanism: 'approximate', epsilon: 1, delta: 1e-6, count: 1 },
  ]);
  // A value runs up to the next name=: "ln 2 / 5" is one value, (ln 2)/5.
  assert.deepEqual(events('geometric epsilon=ln 2 / 5 x 2'), [{ mechanism: 'geometric', epsilon: Math.log(2) / 5, count: 2 }]);
  assert.deepEqual(events('channel [["3/4", "1/4"], [0.25, 0.75]] x20'), [{ mechanism: 'channel', channel: [[0.75, 0.25], [0.25, 0.75]], count: 20 }]);
  assert.deepEqual(events('Gaussian sigma=2 x1e6'), [{ mechanism: 'gaussian', sigma: 2, count: 1e6 }]);
});

test('the grammar: formatting a list reads back as the same events', () => {
  for (const text of [
    'laplace epsilon=0.1 x10; gaussian sigma=1 sensitivity=2 x100',
    'subsampled rate=0.01 of gaussian sigma=1 x10000',
    'rr epsilon=ln 3 x10; channel [[1,0],[0.5,0.5]] x3; approximate epsilon=0.5 delta=1e-7',
  ]) {
    const drafts = parseEvents(text).drafts;
    for (const lines of [false, true]) {
      const again = parseEvents(formatDrafts(drafts, { lines })).drafts;
      assert.deepEqual(again.map((d) => checkDraft(d).event), drafts.map((d) => checkDraft(d).event), `${text} (lines: ${lines})`);
    }
  }
  assert.equal(formatDrafts(parseEvents('gaussian sigma=1 sensitivity=1 x1').drafts), 'gaussian sigma=1');
});

test('the grammar: mistakes are named, with the nearest name', () => {
  const err = (text) => parseEvents(text).error;
  assert.match(err('gausian sigma=1'), /unknown mechanism “gausian” \(did you mean “gaussian”\?\)/);
  assert.match(err('gaussian sigm=1'), /unknown parameter “sigm” \(did you mean “sigma”\?\)/);
  assert.match(err('gaussian'), /gaussian needs sigma=/);
  assert.match(err('laplace scale=1 epsilon=2'), /not both/);
  assert.match(err('gaussian sigma=1 rate=0.1'), /subsampled rate=q of/);
  assert.match(err('subsampled rate=0.1 gaussian sigma=1'), /subsampled rate=q of/);
  assert.match(err('subsampled rate=0.1 of subsampled rate=0.5 of gaussian sigma=1'), /cannot be subsampled again/);
  assert.match(err('laplace epsilon=1; bogus'), /^event 2 \(“bogus”\): unknown mechanism/);
  assert.match(err('channel 1 0; 0 1'), /JSON/);
  assert.match(err('   ;  '), /no events/);
  assert.match(err(Array(MAX_EVENTS + 1).fill('pure epsilon=1').join(';')), new RegExp(`at most ${MAX_EVENTS}`));
  assert.match(err('gaussian sigma='), /has no value/);
  assert.match(err('gaussian sigma=1 sigma=2'), /twice/);
});

test('values are checked with messages naming the field: σ ≤ 0, q outside (0, 1], δ outside [0, 1), counts, channels', () => {
  const errs = (text) => checkDraft(parseEvents(text).drafts[0]).errors;
  assert.deepEqual(errs('gaussian sigma=0').map((e) => e.field), ['sigma']);
  assert.match(errs('gaussian sigma=-1')[0].message, /σ must be > 0/);
  assert.match(errs('subsampled rate=1.5 of gaussian sigma=1')[0].message, /rate q must be in \(0, 1\]/);
  assert.match(errs('subsampled rate=0 of gaussian sigma=1')[0].message, /rate q must be in \(0, 1\]/);
  assert.equal(checkDraft(parseEvents('subsampled rate=1 of gaussian sigma=1').drafts[0]).event.rate, 1);
  assert.match(errs('approximate epsilon=1 delta=1')[0].message, /δ must be in \[0, 1\)/);
  assert.equal(checkDraft(parseEvents('approximate epsilon=0 delta=0').drafts[0]).event.delta, 0);
  assert.match(errs('pure epsilon=0')[0].message, /ε \(nats\) must be > 0/);
  assert.match(errs('gaussian sigma=x')[0].message, /noise σ: /);
  assert.deepEqual(readCount('2.5'), { error: 'count must be a positive whole number, got 2.5' });
  assert.deepEqual(readCount('0'), { error: 'count must be a positive whole number, got 0' });
  assert.match(readCount('1e10').error, /at most 1e9/);
  assert.deepEqual(readCount('10,000'), { value: 10000 });
  assert.deepEqual(readCount(''), { value: 1 });
  assert.match(readChannel('[[0.5, 0.4], [0.5, 0.5]]').error, /row 1 sums to 0.9/);
  assert.match(readChannel('[[1, 0]]').error, /at least two rows/);
  assert.match(readChannel('[[1, 0], [1]]').error, /row 2 has 1 entries/);
  assert.match(readChannel('[[1.5, -0.5], [0, 1]]').error, /negative/);
  assert.equal(editDistance('kitten', 'sitting'), 3);
});

test('the API\'s event objects (the widget\'s JSON child) become drafts of the same events', () => {
  const cases = [
    { mechanism: 'gaussian', sigma: 1, count: 100 },
    { mechanism: 'laplace', scale: 10, count: 10 },
    { mechanism: 'subsampled', rate: 0.01, of: { mechanism: 'gaussian', sigma: 1 }, count: 10000 },
    { mechanism: 'channel', channel: [[0.75, 0.25], [0.25, 0.75]], count: 5 },
    { mechanism: 'approximate', epsilon: 1, delta: 1e-6, count: 1 },
  ];
  for (const ev of cases) assert.deepEqual(checkDraft(draftOfEvent(ev).draft).event, ev);
  // Laplace given by its ε, as in the grammar.
  assert.deepEqual(checkDraft(draftOfEvent({ mechanism: 'laplace', epsilon: 0.5 }).draft).event, { mechanism: 'laplace', scale: 2, count: 1 });
  assert.match(draftOfEvent({ mechanism: 'gausian', sigma: 1 }).error, /did you mean “gaussian”/);
  assert.match(draftOfEvent(null).error, /object/);
  assert.match(draftOfEvent({ mechanism: 'gaussian', sigmaa: 1 }).error, /gaussian has no parameter “sigmaa” \(did you mean “sigma”\?\)/);
  assert.match(draftOfEvent({ mechanism: 'channel', channel: [[1, 0], [0, 1]], graph: { n: 2, edges: [[0, 1]] } }).error, /graph/);
  assert.match(draftOfEvent({ mechanism: 'subsampled', rate: 0.1, of: { mechanism: 'gaussian', sigma: 1, count: 5 } }).error, /count on the subsampled event/);
  assert.match(draftOfEvent({ mechanism: 'subsampled', rate: 0.1, of: { mechanism: 'subsampled', rate: 0.1, of: {} } }).error, /not itself subsampled/);
});

test('the presets: ten counting queries, DP-SGD, a survey', () => {
  const ev = (name) => PRESETS[name].drafts().map((d) => checkDraft(d).event);
  assert.deepEqual(ev('counting'), [{ mechanism: 'laplace', scale: 10, count: 10 }]); // ε = 1/10 each
  assert.deepEqual(ev('dpsgd'), [{ mechanism: 'subsampled', rate: 0.01, of: { mechanism: 'gaussian', sigma: 1 }, count: 10000 }]);
  assert.deepEqual(ev('survey'), [{ mechanism: 'randomizedResponse', epsilon: Math.log(3), count: 10 }]);
});

test('the section\'s state: read, and a shared link round trip', () => {
  const s = createState();
  const r = readState(s);
  assert.deepEqual(r.events, [{ mechanism: 'laplace', scale: 10, count: 10 }]);
  assert.equal(r.ask, 'epsilon');
  assert.equal(r.value, 1e-5);
  // Through JSON, as a link carries it.
  const s2 = presetState('dpsgd');
  s2.ask = 'delta';
  s2.epsilon = 'ln 2';
  s2.drafts.push(newDraft('channel', { channel: '[[1, 0], [0, 1]]' }, '3'));
  const back = checkState(JSON.parse(JSON.stringify(stateForURL(s2))));
  assert.deepEqual(back, s2);
  assert.deepEqual(readState(back).events.at(-1), { mechanism: 'channel', channel: [[1, 0], [0, 1]], count: 3 });
  assert.equal(readState(back).value, Math.log(2));
  // Untrusted shapes are refused with a reason; values that do not read are kept as typed.
  assert.throws(() => checkState([]), /object/);
  assert.throws(() => checkState({ events: [] }), /non-empty/);
  assert.throws(() => checkState({ events: [{ mechanism: 'evil' }] }), /event 1: unknown mechanism/);
  const odd = checkState({ events: [{ mechanism: 'gaussian', params: { sigma: '-1', extra: 'x' }, count: 'many' }], ask: 'bogus', delta: '7' });
  assert.deepEqual(odd.drafts[0].params, { sigma: '-1', sensitivity: '1' });
  assert.equal(odd.ask, 'epsilon');
  const bad = readState(odd);
  assert.deepEqual(bad.errors.map((e) => e.field).sort(), ['count', 'sigma']);
  assert.match(bad.questionError, /δ must be < 1/);
  // δ = 0 is a question (a Gaussian answers ε = ∞); an empty list is not.
  assert.equal(readState({ ...createState(), delta: '0' }).value, 0);
  assert.deepEqual(readState({ ...createState(), drafts: [] }).errors.map((e) => e.field), ['events']);
});

test('the plan: calls, the ε grid, the bounds\' curves and the export table', () => {
  const ev = [{ mechanism: 'gaussian', sigma: 1, count: 1 }];
  const dc = answerCall(ev, 'delta', 1);
  assert.deepEqual([dc.fn, dc.args[0], dc.args[1].epsilon, typeof dc.args[1].onProgress], ['delta', ev, 1, 'function']);
  const a = answerCall(ev, 'epsilon', 1e-5);
  assert.equal(a.fn, 'epsilon');
  assert.equal(a.args[1].delta, 1e-5);
  assert.equal(typeof a.args[1].onProgress, 'function');
  assert.equal(compareCall(ev, 0), null);
  assert.equal(compareCall(ev, 1), null);
  assert.deepEqual(compareCall(ev, 0.5), { ns: 'accounting', fn: 'compare', args: [ev, { delta: 0.5 }] });
  assert.equal(compareDelta('epsilon', 1e-5, { epsilon: 3 }), 1e-5);
  assert.equal(compareDelta('delta', 2, { delta: 0.01 }), 0.01);
  const p = profileCall(ev, 2, 5);
  assert.deepEqual(p.args[1].epsilons, [0, 0.5, 1, 1.5, 2]);
  assert.equal(typeof p.args[1].onProgress, 'function');
  // The grid reaches beyond the largest ε of the sweep (exact where given, else the PLD's).
  assert.equal(profileEnd([{ pld: { epsilon: 3 } }, { exact: { epsilon: 4 }, pld: { epsilon: 4.1 } }, null]), 4 * 1.1);
  assert.equal(profileEnd([null], 2), 4 * 1.1);
  assert.equal(profileEnd([null]), 1);
  const sweep = [
    { naive: { epsilon: 1 }, advanced: { epsilon: 0.9 }, rdp: { epsilon: 0.5 } },
    { naive: { epsilon: 1 }, rdp: { epsilon: 0.8 } },
    null,
  ];
  assert.deepEqual(boundCurves(sweep, [0.1, 0.01, 0.001]), {
    rdp: [[0.5, 0.1], [0.8, 0.01]],
    advanced: [[0.9, 0.1]],
    naive: [[1, 0.1], [1, 0.01]],
  });
  const prof = { epsilon: Float64Array.of(0, 1, 2), delta: Float64Array.of(0.5, 0.1, 0), deltaLower: Float64Array.of(0.4, 0, 0) };
  assert.deepEqual(profileCurves(prof), { upper: [[0, 0.5], [1, 0.1]], lower: [[0, 0.4]] });
  const t = curveTable(prof, sweep.slice(0, 1), [0.1]);
  assert.deepEqual(t.colLabels, ['curve', 'epsilon', 'delta', 'delta lower']);
  assert.deepEqual(t.rows, [['pld', 0, 0.5, 0.4], ['pld', 1, 0.1, 0], ['pld', 2, 0, 0], ['rdp', 0.5, 0.1, ''], ['advanced', 0.9, 0.1, ''], ['naive', 1, 0.1, '']]);
  assert.ok(SWEEP.every((d, i) => i === 0 || d < SWEEP[i - 1]), 'the sweep goes down in δ');
});
