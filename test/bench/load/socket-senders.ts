// A load generator in its own process: `node socket-senders.js PORT PER_CONNECTION CONNECTIONS WIDTH`.
// WIDTH senders each open a connection, send an array of PER_CONNECTION results (a bare object when 1), wait for `ok`,
// and repeat until CONNECTIONS connections are done. Prints one JSON line: results/s and ack latencies.
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { summary } from './latency.js';

// This process's own CPU time: what the load generator took of the shared machine.
const cpuMs = () => Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000);
const [port, perConnection, connections, width] = process.argv.slice(2).map(Number) as [number, number, number, number];

function send(payload: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(payload));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => (answer === 'ok' ? resolve(performance.now() - started) : reject(new Error(`answer ${JSON.stringify(answer)}`))));
    socket.on('error', reject);
  });
}

const result = (i: number) => ({ name: `check_${i % 100}`, output: `output ${i}`, status: i % 3, source: `host-${Math.floor(i / 100) % 100}` });
const payloads = Array.from({ length: connections }, (_, c) =>
  JSON.stringify(perConnection === 1 ? result(c) : Array.from({ length: perConnection }, (_, i) => result(c * perConnection + i))),
);
const latencies: number[] = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: width }, async () => {
    while (next < payloads.length) latencies.push(await send(payloads[next++]!));
  }),
);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  JSON.stringify({
    results: connections * perConnection,
    seconds,
    results_per_s: Math.round((connections * perConnection) / seconds),
    cpu_ms: cpuMs(),
    ...summary(latencies, 'ack'),
  }) + '\n',
);
