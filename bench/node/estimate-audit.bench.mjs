// Audits every qif.estimate function on the largest input it is likely to meet — 10⁶ samples —
// against the rule "nothing runs over 1 s without onProgress": each case runs in a fresh Node
// process (the first call of a module grows its heap; that is what a page or script meets first),
// then once more warm, each timed by wall clock and by the process's CPU (the better guide on a
// shared machine). "longest silence" is the longest wall time of the warm call without a word:
// from the call to the first onProgress report, between reports, and from the last to the end
// (the whole call for a function without onProgress). The peer, measured in the same process on
// the same data, is plain JavaScript tallying the (secret, observation) pairs in a Map — the least
// any estimate has to do once the labels are in JS.
//   scripts/build.sh && node bench/node/estimate-audit.bench.mjs [case substring]
import { load } from '../../web/qif.js';
import { rng } from './timing.mjs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const N = 1_000_000;

// The data sets, built before any timing: string labels that are all distinct (refused by the
// label estimators), string labels that repeat (4 secrets × 100 observations), and numbers
// (a plain array: read as numbers by kind 'auto').
function data(name) {
  const r = rng(7);
  const secrets = new Array(N), obs = new Array(N);
  for (let i = 0; i < N; i++) {
    const x = Math.floor(4 * r());
    if (name === 'distinct strings') { secrets[i] = `key ${x}`; obs[i] = `t${i}`; }
    if (name === 'repeated strings') { secrets[i] = `key ${x}`; obs[i] = `o${r() < 0.5 ? 25 * x + Math.floor(25 * r()) : Math.floor(100 * r())}`; }
    if (name === 'numbers') {
      secrets[i] = x;
      obs[i] = 412 + 3 * x + 2 * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    }
  }
  return { secrets, obs };
}

const FUNCTIONS = ['channel', 'mutualInformation', 'minEntropyLeakage', 'bayesRisk'];
const CASES = [];
for (const d of ['distinct strings', 'repeated strings', 'numbers']) {
  for (const f of FUNCTIONS) CASES.push({ what: `estimate.${f}, 10⁶ ${d}`, d, f });
}
CASES.push({ what: 'estimate.readSamples, 10⁶ lines of CSV', d: 'csv', f: 'readSamples' });

// One case, in this process: the first call, then a warm one with onProgress when it takes one.
async function runCase(c) {
  const qif = await load();
  let args;
  if (c.f === 'readSamples') {
    const { secrets, obs } = data('numbers');
    args = [secrets.map((x, i) => `${x},${obs[i].toFixed(3)}`).join('\n')];
  } else {
    const { secrets, obs } = data(c.d);
    args = [secrets, obs];
  }
  const fn = qif.estimate[c.f];
  const takesProgress = c.f === 'readSamples' || qif.describe(`estimate.${c.f}`).long;
  const once = (withProgress) => {
    const reports = [];
    const opts = withProgress && takesProgress ? { onProgress: () => { reports.push(performance.now()); } } : undefined;
    const c0 = process.cpuUsage(), t0 = performance.now();
    let out;
    try { out = opts ? fn(...args, opts) : fn(...args); } catch (e) { out = e; }
    const t1 = performance.now(), cpu = process.cpuUsage(c0);
    const marks = [t0, ...reports, t1];
    let silence = 0;
    for (let i = 1; i < marks.length; i++) silence = Math.max(silence, marks[i] - marks[i - 1]);
    return { ms: t1 - t0, cpu: (cpu.user + cpu.system) / 1000, reports: reports.length, silence, out };
  };
  const first = once(false), warm = once(true);
  // The peer: a Map tally of the pairs (strings as they are; numbers as their values).
  const p0 = performance.now();
  if (c.f === 'readSamples') args[0].split('\n').map((l) => l.split(','));
  else {
    const m = new Map();
    for (let i = 0; i < N; i++) { const k = `${args[0][i]}\u0000${args[1][i]}`; m.set(k, (m.get(k) ?? 0) + 1); }
  }
  const peer = performance.now() - p0;
  const out = warm.out;
  const note = out instanceof Error ? `refused: ${out.message.slice(0, 60)}…`
    : c.f === 'readSamples' ? `${out.rows} rows` : c.f === 'channel' ? `${out.secrets.length}×${out.observations.length}, ${out.kind}` : `${out.kind} ${out.value.toFixed(3)}`;
  return { first, warm: { ...warm, out: undefined }, takesProgress, peer, note };
}

const self = fileURLToPath(import.meta.url);
if (process.argv[2] === '--case') {
  const r = await runCase(CASES[Number(process.argv[3])]);
  r.first.out = undefined;
  console.log(JSON.stringify(r));
} else {
  const pick = process.argv[2];
  const rows = [];
  const over = [];
  CASES.forEach((c, i) => {
    if (pick && !c.what.includes(pick)) return;
    const p = spawnSync(process.execPath, ['--max-old-space-size=4096', self, '--case', String(i)], { encoding: 'utf8' });
    if (p.status !== 0) { rows.push({ what: c.what, note: `failed: ${p.stderr.trim().split('\n').at(-1)}` }); return; }
    const r = JSON.parse(p.stdout.trim().split('\n').at(-1));
    rows.push({
      what: c.what,
      'first ms': Math.round(r.first.ms), 'first cpu': Math.round(r.first.cpu),
      'warm ms': Math.round(r.warm.ms), 'warm cpu': Math.round(r.warm.cpu),
      onProgress: r.takesProgress ? `yes (${r.warm.reports})` : 'no',
      'longest silence ms': Math.round(r.warm.silence),
      'JS tally ms': Math.round(r.peer), 'warm / tally': +(r.warm.ms / r.peer).toFixed(1),
      note: r.note,
    });
    if (!r.takesProgress && Math.max(r.first.cpu, r.warm.cpu) > 1000) over.push(c.what);
  });
  console.table(rows);
  console.log(over.length ? `over 1 s of CPU without onProgress: ${over.join('; ')}` : 'every case over 1 s of CPU takes onProgress');
  console.log('cpu: the process\'s CPU ms (the better guide on a shared machine); first: the first call of a fresh module; warm: the second, with onProgress where taken.');
}
