// Privacy accounting in WebAssembly (Node) against Google's dp_accounting (its PLD library at the
// default discretization 1e-4, pessimistic estimate) measured in the same run on the same
// workloads, at δ = 1e-5:
//   - 10⁶ Gaussian mechanisms of σ = 1000 (sensitivity 1);
//   - 10⁶ Laplace mechanisms of scale 1000;
//   - 1,000 distinct Laplace mechanisms of scales 50, 50.1, …, 149.9;
//   - DP-SGD: 10,000 steps of the Gaussian mechanism (σ = 1) on Poisson samples at rate 0.01.
// Prints for each: both times and their ratio, both ε, their difference, and the certified
// interval's width relative to ε. Targets: no slower than dp_accounting, ε within 1e-3 of its
// value, interval narrower than 1% of ε.
//   scripts/build.sh && node bench/accounting/bench.mjs DIR [--tolerance=1e-4] [workload ...]
// DIR is the folder holding the dp_accounting package (python3 with numpy, scipy, mpmath, attr and
// absl, as Debian packages them); without it only this toolkit is timed.
import { load } from '../../web/qif.js';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const tolerance = Number(args.find((a) => a.startsWith('--tolerance='))?.slice(12) ?? 1e-4);
const positional = args.filter((a) => !a.startsWith('--'));
const dir = positional[0] && !WORKLOADS_HAS(positional[0]) ? positional.shift() : undefined;
function WORKLOADS_HAS(name) { return ['gaussians', 'laplace', 'distinctLaplace', 'dpsgd'].includes(name); }

const delta = 1e-5;
const distinct = Array.from({ length: 1000 }, (_, i) => ({ mechanism: 'laplace', scale: 50 + i / 10 }));
const workloads = {
  gaussians: ['10⁶ Gaussians σ=1000', [{ mechanism: 'gaussian', sigma: 1000, count: 1e6 }]],
  laplace: ['10⁶ Laplace b=1000', [{ mechanism: 'laplace', scale: 1000, count: 1e6 }]],
  distinctLaplace: ['1,000 distinct Laplace b=50…149.9', distinct],
  dpsgd: ['DP-SGD 10⁴ steps q=0.01 σ=1', [{ mechanism: 'subsampled', rate: 0.01, of: { mechanism: 'gaussian', sigma: 1 }, count: 10000 }]],
};
const names = positional.length ? positional : Object.keys(workloads);

const qif = await load();
const here = path.dirname(fileURLToPath(import.meta.url));
const rows = [];
for (const name of names) {
  const [label, events] = workloads[name];
  let peer;
  if (dir) {
    const p = spawnSync('/usr/bin/python3', [path.join(here, 'peer.py'), dir, name], { encoding: 'utf8' });
    if (p.status === 0) peer = JSON.parse(p.stdout.trim().split('\n').at(-1));
    else console.log(`${name}: dp_accounting failed: ${p.stderr.trim().split('\n').at(-1)}`);
  }
  const t0 = performance.now();
  const r = qif.accounting.epsilon(events, { delta, tolerance });
  const s = (performance.now() - t0) / 1000;
  rows.push({
    workload: label,
    'qif s': +s.toFixed(3),
    'dp_accounting s': peer ? +peer.seconds.toFixed(3) : '',
    'qif / peer': peer ? +(s / peer.seconds).toFixed(3) : '',
    'qif ε': +r.epsilon.toFixed(6),
    'peer ε': peer ? +peer.epsilon.toFixed(6) : '',
    '|Δε|': peer ? +Math.abs(r.epsilon - peer.epsilon).toExponential(2) : '',
    'width / ε': +((r.upper - r.lower) / r.epsilon).toExponential(2),
    method: r.method + (r.details.passes ? ` (${r.details.passes} passes, h ${r.details.grid.toPrecision(3)})` : ''),
  });
}
console.table(rows);
console.log(`δ = ${delta}, tolerance ${tolerance}; dp_accounting: PLD, discretization 1e-4, pessimistic. Targets: qif / peer ≤ 1, |Δε| ≤ 1e-3, width / ε < 1e-2.`);
