// A delaying TCP proxy in its own process (forked, IPC), loopback only: every chunk, each direction, is forwarded half the
// added round trip after it was read, in order; it counts round trips and PostgreSQL statements passing through.
//   fork delay-proxy.js UPSTREAM_PORT [ROUND_TRIP_MS]   prints its port; IPC {delay_ms} sets the round trip, {stats} answers counters.
// Sub-millisecond delays: timers are whole milliseconds, so the last millisecond is waited in Atomics.wait (off-CPU).
import { createServer, connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

const [upstreamPort, initial] = process.argv.slice(2).map(Number) as [number, number | undefined];
let oneWayMs = (initial ?? 0) / 2;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const counts = { connections: 0, round_trips: 0, statements: 0, simple_queries: 0, client_bytes: 0, server_bytes: 0 };
// Round trips of each connection, in the order they were opened.
const perConnection: number[] = [];

interface Pending {
  readonly due: number;
  readonly chunk: Buffer;
  readonly to: Socket;
}
const queue: Pending[] = [];
let timer: NodeJS.Timeout | null = null;

/** Writes every chunk that is due; waits out a last sub-millisecond, then arms a timer for the next. */
function flush(): void {
  timer = null;
  for (;;) {
    const head = queue[0];
    if (!head) return;
    const wait = head.due - performance.now();
    if (wait > 1) return void (timer = setTimeout(flush, Math.floor(wait - 0.5)));
    if (wait > 0) Atomics.wait(sleeper, 0, 0, wait);
    queue.shift();
    if (!head.to.destroyed) head.to.write(head.chunk);
  }
}

function forward(chunk: Buffer, to: Socket): void {
  if (oneWayMs <= 0 && queue.length === 0) return void to.write(chunk);
  // One queue for every connection: each chunk has the same delay, so due times are in reading order.
  queue.push({ due: performance.now() + oneWayMs, chunk, to });
  if (!timer) flush();
}

/** Counts the frontend's statements: Execute ('E') and simple Query ('Q') messages, after the untyped startup ones. */
function statementCounter(): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    for (;;) {
      if (!started) {
        if (pending.length - at < 8) break;
        const length = pending.readInt32BE(at);
        if (pending.length - at < length) break;
        // 196608 is protocol 3.0's startup; anything else (SSLRequest, GSSENCRequest, CancelRequest) precedes it.
        if (pending.readInt32BE(at + 4) === 196608) started = true;
        at += length;
        continue;
      }
      if (pending.length - at < 5) break;
      const length = pending.readInt32BE(at + 1);
      if (pending.length - at < length + 1) break;
      const type = pending[at];
      if (type === 0x45 || type === 0x51) counts.statements += 1;
      if (type === 0x51) counts.simple_queries += 1;
      at += length + 1;
    }
    pending = pending.subarray(at);
  };
}

const server = createServer((client) => {
  const index = counts.connections++;
  perConnection[index] = 0;
  const upstream = connect({ host: '127.0.0.1', port: upstreamPort });
  const count = statementCounter();
  // A round trip: the client speaks again after the server has answered (or first, on a new connection).
  let serverSpokeLast = true;
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  client.on('data', (chunk: Buffer) => {
    if (serverSpokeLast) {
      counts.round_trips += 1;
      perConnection[index]! += 1;
    }
    serverSpokeLast = false;
    counts.client_bytes += chunk.length;
    count(chunk);
    forward(chunk, upstream);
  });
  upstream.on('data', (chunk: Buffer) => {
    serverSpokeLast = true;
    counts.server_bytes += chunk.length;
    forward(chunk, client);
  });
  const close = () => (client.destroy(), upstream.destroy());
  for (const socket of [client, upstream]) socket.on('error', close).on('close', close);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
});
process.on('message', (message: { delay_ms?: number; stats?: boolean }) => {
  if (typeof message.delay_ms === 'number') oneWayMs = message.delay_ms / 2;
  process.send!({ ...counts, delay_ms: oneWayMs * 2, per_connection: perConnection });
});
process.on('disconnect', () => process.exit(0));
