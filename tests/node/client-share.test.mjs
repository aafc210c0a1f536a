// The client's share(): a large matrix reaches the worker in pieces, whole and in place; a worker restarted half-way gets the pieces copied so far again and the
// rest after them; a matrix shared again stops the copying of the old one. The worker is a fake
// that records its messages (Node has no Web Worker), and the matrix is checked entry by entry
// against the values it was made of.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QifClient } from '../../web/engine/client.js';

class FakeWorker {
  static all = [];
  constructor() {
    this.messages = [];
    this.terminated = false;
    FakeWorker.all.push(this);
  }
  postMessage(m) {
    // What structured cloning gives the worker: its own copy of the piece.
    this.messages.push(m.type === 'share-piece' ? { ...m, data: m.data.slice() } : m);
  }
  terminate() { this.terminated = true; }
}

// The matrix `key` as a worker rebuilds it from its messages (engine/worker-serve.js receiveShare).
function rebuilt(worker, key) {
  let out = null;
  let v = null;
  let missing = 0;
  for (const m of worker.messages) {
    if (m.key !== key) continue;
    if (m.type === 'share') {
      out = new Float64Array(m.rows * m.cols).fill(NaN);
      v = m.v;
      missing = m.rows * m.cols;
    } else if (m.type === 'share-piece' && m.v === v) {
      out.set(m.data, m.offset);
      missing -= m.data.length;
    }
  }
  return { data: out, missing };
}

const tasks = () => new Promise((resolve) => setTimeout(resolve, 0));
async function until(done) {
  for (let k = 0; k < 10000 && !done(); k++) await tasks();
  assert.ok(done(), 'the copying finished');
}

function matrix(rows, cols) {
  const data = new Float64Array(rows * cols);
  for (let k = 0; k < data.length; k++) data[k] = (k % 977) / 977 + k * 1e-9;
  return { rows, cols, data };
}

test('a 1,000 × 1,000 matrix arrives whole, in pieces of at most 65,536 entries', async () => {
  globalThis.Worker = FakeWorker;
  const client = new QifClient();
  const w = FakeWorker.all.at(-1);
  const M = matrix(1000, 1000);
  const ref = client.share('channel', M);
  assert.deepEqual(ref, { $shared: 'channel', v: ref.v });
  await until(() => rebuilt(w, 'channel').missing === 0);
  const pieces = w.messages.filter((m) => m.type === 'share-piece');
  assert.equal(pieces.length, Math.ceil(M.data.length / (1 << 16)));
  assert.ok(pieces.every((p) => p.data.length <= 1 << 16), 'pieces of at most 65,536 entries');
  assert.deepEqual(rebuilt(w, 'channel').data, M.data);
  client.terminate();
});

test('a worker restarted while the pieces go gets them all, once each from where it stands', async () => {
  globalThis.Worker = FakeWorker;
  const client = new QifClient();
  const M = matrix(800, 900);
  const want = M.data.slice();
  client.share('channel', M);
  client.restart(); // as a cancel does, before the copying has finished
  const w = FakeWorker.all.at(-1);
  await until(() => rebuilt(w, 'channel').missing === 0);
  assert.equal(rebuilt(w, 'channel').missing, 0, 'no piece counted twice');
  assert.deepEqual(rebuilt(w, 'channel').data, want);
  client.terminate();
});

test('sharing a key again stops the old copying; the worker ends with the new matrix', async () => {
  globalThis.Worker = FakeWorker;
  const client = new QifClient();
  const w = FakeWorker.all.at(-1);
  const A = matrix(1000, 1000);
  const B = { rows: 2, cols: 2, data: Float64Array.of(1, 0, 0.25, 0.75) };
  const a = client.share('channel', A);
  const b = client.share('channel', B);
  assert.ok(b.v > a.v);
  await until(() => rebuilt(w, 'channel').missing === 0);
  for (let k = 0; k < 100; k++) await tasks();
  const header = w.messages.findIndex((m) => m.type === 'share' && m.v === b.v);
  assert.ok(!w.messages.slice(header).some((m) => m.v === a.v), 'no piece of the replaced matrix after the new one');
  assert.deepEqual(rebuilt(w, 'channel').data, B.data);
  client.terminate();
});
