// Whether a daemon keeps answering while it works on something a caller sent: the bound of the hostile-input tests.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';

// Generous for two cores at load 10: linear work on the largest body holds the event loop well under a second there;
// the quadratic work these tests catch held it for a minute or more at rest.
export const LIVENESS_MS = 15_000;

/** /health asked one request after another until `pending` settles, each answered within LIVENESS_MS; the latencies. */
export async function healthWhile(v2: string, pending: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  const latencies: number[] = [];
  do {
    const started = performance.now();
    const answer = await fetch(`${v2}/health`, { signal: AbortSignal.timeout(LIVENESS_MS) }).catch((error: Error) => error);
    assert.ok(!(answer instanceof Error), `/health gave no answer within ${LIVENESS_MS} ms during the write (${String(answer)})`);
    assert.equal(answer.status, 200);
    await answer.arrayBuffer();
    latencies.push(performance.now() - started);
  } while (!settled);
  return latencies;
}
