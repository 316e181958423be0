// Legacy Sensu 1.x clients' traffic in its own process, on the legacy wire:
//   node legacy-senders.js AMQP_URL SOCKET_PORT CLIENTS CONNECTIONS KEEPALIVE_S RESULT_S SECONDS
// CLIENTS clients over CONNECTIONS AMQP connections each publish a keepalive every KEEPALIVE_S to `keepalives` and a
// result every RESULT_S to `results` (check `soak_amqp`, handled on a change of status through the handler set
// `soak_set`); every RESULT_S each client's socket result (check `soak_socket`, `source` the client) goes to the
// client socket, 50 results to a connection. Stops after SECONDS; prints one JSON line of what it sent and had acknowledged.
import { connect } from 'node:net';
import amqp from 'amqplib';

const cpuMs = () => Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000);
const [url, socketPort, ...rest] = process.argv.slice(2) as [string, string, ...string[]];
const [clients, connections, keepaliveS, resultS, seconds] = rest.map(Number) as [number, number, number, number, number];
// The legacy flags and properties (a different declaration would be refused by the broker).
const EXCHANGE = { durable: false, autoDelete: false, internal: false };
const PROPERTIES = { contentType: 'application/octet-stream', deliveryMode: 1, priority: 0 };
const SOCKET_BATCH = 50;

const nowS = () => Math.floor(Date.now() / 1000);
const name = (i: number) => `legacy-${i}`;
const keepalive = (i: number) =>
  JSON.stringify({ name: name(i), address: '127.0.0.1', subscriptions: ['soak', `client:${name(i)}`], version: '1.9.0', timestamp: nowS() });
// One client in ten flips its status every result: each flip is a state change the handler set runs for.
const result = (i: number, n: number) =>
  JSON.stringify({
    client: name(i),
    check: {
      name: 'soak_amqp',
      command: 'soak',
      handlers: ['soak_set'],
      output: `amqp ${n}`,
      status: i % 10 === 0 ? n % 2 : 0,
      issued: nowS(),
      executed: nowS(),
      duration: 0.01,
    },
  });

const channels = await Promise.all(
  Array.from({ length: connections }, async () => {
    const connection = await amqp.connect(url);
    const channel = await connection.createChannel();
    for (const exchange of ['keepalives', 'results']) await channel.assertExchange(exchange, 'direct', EXCHANGE);
    return { connection, channel };
  }),
);

/** One socket connection with a batch of results; resolves with whether the daemon answered `ok`. */
function sendSocket(payload: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(socketPort), '127.0.0.1', () => socket.end(payload));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer === 'ok'));
    socket.on('error', () => resolve(false));
  });
}

const sent = { keepalives: 0, amqp_results: 0, status_changes: 0, socket_results: 0, socket_results_ok: 0, socket_refused: 0 };
const timers: NodeJS.Timeout[] = [];
const endAt = Date.now() + seconds * 1000;
for (let i = 0; i < clients; i += 1) {
  const { channel } = channels[i % connections]!;
  let n = 0;
  const publishKeepalive = () => void (channel.publish('keepalives', '', Buffer.from(keepalive(i)), PROPERTIES), (sent.keepalives += 1));
  const publishResult = () => {
    // Every result after a flipping client's first changes its status: the handler set runs once for each.
    if (i % 10 === 0 && n > 0) sent.status_changes += 1;
    channel.publish('results', '', Buffer.from(result(i, n++)), PROPERTIES);
    sent.amqp_results += 1;
  };
  publishKeepalive();
  // Spread over the interval, as a fleet's clients started at different times are.
  const offset = Math.floor((i / clients) * 1000 * Math.min(keepaliveS, resultS));
  timers.push(
    setTimeout(() => {
      timers.push(setInterval(publishKeepalive, keepaliveS * 1000));
      timers.push(setInterval(publishResult, resultS * 1000));
      publishResult();
    }, offset),
  );
}
// The socket: every client's result each RESULT_S, in batches spread over the interval.
const batches = Math.ceil(clients / SOCKET_BATCH);
const pending: Promise<void>[] = [];
for (let b = 0; b < batches; b += 1) {
  let n = 0;
  const sendBatch = () => {
    const round = n++;
    const batch = Array.from({ length: Math.min(SOCKET_BATCH, clients - b * SOCKET_BATCH) }, (_, k) => {
      const i = b * SOCKET_BATCH + k;
      return { name: 'soak_socket', source: name(i), output: `socket ${round}`, status: 0, handlers: ['soak_set'] };
    });
    sent.socket_results += batch.length;
    pending.push(sendSocket(JSON.stringify(batch)).then((ok) => void (ok ? (sent.socket_results_ok += batch.length) : (sent.socket_refused += 1))));
  };
  timers.push(setTimeout(() => void (timers.push(setInterval(sendBatch, resultS * 1000)), sendBatch()), Math.floor((b / batches) * 1000 * resultS)));
}
await new Promise((resolve) => setTimeout(resolve, Math.max(0, endAt - Date.now())));
for (const timer of timers) clearInterval(timer);
await Promise.all(pending);
// Closing waits for what is buffered to be written: everything counted as sent reached the broker.
for (const { connection } of channels) await connection.close();
process.stdout.write(JSON.stringify({ clients, ...sent, cpu_ms: cpuMs() }) + '\n');
