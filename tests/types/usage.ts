// A program written against web/qif.d.ts as a user would write it: `tsc --strict --noEmit`
// compiles it in the tests (tests/node/typescript.test.mjs), so a declaration that stops
// matching how the API is used, or that does not compile, fails there. It is never run.
import { load, type QIF, type MatrixOut, type ArgumentError, type AbortError } from '../../web/qif.js';

async function main(): Promise<void> {
  const qif: QIF = await load({ lazy: true });
  await qif.loadModule('more');
  const prior = [0.25, 0.25, 0.5];
  const C = [
    [0.5, 0.5, 0],
    [0, 0.5, 0.5],
    [0.5, 0, 0.5],
  ];
  const bits: number = qif.measure.minEntropyLeakage(prior, C);
  const H: number = qif.measure.shannonEntropy(prior);
  const typed = qif.measure.shannonEntropy(new Float64Array(prior));
  const triangle = { n: 3, edges: [[0, 1], [1, 2], [0, 2]] as [number, number][] };
  const eps: number = qif.privacy.epsilon(C, triangle);
  const M: MatrixOut = qif.mechanism.optimal(qif.graph.path(4), 1);
  const entry: number = M.data[0 * M.cols + 1];
  const est = qif.estimate.minEntropyLeakage(['a', 'b', 'a'], ['x', 'y', 'x'], { confidence: 0.9, seed: 1 });
  const interval: [number, number] = [est.lower, est.upper];
  const sample = qif.channel.sample(prior, C, 100, { seed: 7 });
  void sample;
  const fn = qif.describe('measure.shannonCapacity');
  void fn;

  await qif.loadModule('exact');
  if (qif.moduleLoaded('exact')) {
    const P = qif.program.channel('secret x in 0..3\nobserve x % 2');
    void P;
  }
  try {
    qif.measure.shannonEntropy([0.5, 0.6]);
  } catch (e) {
    const err = e as ArgumentError;
    const where: string | undefined = err.argument;
    void where;
  }
  try {
    qif.refine.safeEpsilonCurve({ family1: 'geometric', family2: 'randomizedResponse', n: 4, epsilons1: [0.5, 1] }, () => false);
  } catch (e) {
    if ((e as AbortError).name === 'AbortError') {
      // cancelled
    }
  }
  console.log(bits, H, typed, eps, entry, interval);
}

void main();
