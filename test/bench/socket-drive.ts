import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One payload over its own client-socket connection; the milliseconds until the daemon answered `ok`. */
function send(port: number, payload: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(payload));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => (answer === 'ok' ? resolve(performance.now() - started) : reject(new Error(`answer ${answer}`))));
    socket.on('error', reject);
  });
}

/** `payloads` sent over `width` connections at a time: the whole run's seconds and each send's latency (ms, sorted). */
export async function drive(port: number, payloads: string[], width: number): Promise<{ seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < payloads.length) latencies.push(await send(port, payloads[next++]!));
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
}
