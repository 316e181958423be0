// Simulated Sensu Go agents in their own process, over the agent WebSocket (JSON frames `type\npayload`).
//   node agent-senders.js hold URL PASSWORD V2 TOKEN AGENTS KEEPALIVE_S EVENT_S HOLD_S
//     AGENTS agents connect, each sends a keepalive every KEEPALIVE_S and an event every EVENT_S for HOLD_S; one probe
//     agent four times a second sends an event and polls the v2 API until it is stored (send-to-stored latency, sampled).
//   node agent-senders.js rate URL PASSWORD AGENTS PER_AGENT [json|protobuf]
//     AGENTS agents each send PER_AGENT events as fast as the socket takes them, then one `done` event; with `protobuf`
//     they ask for it in the handshake, as the real agent does, and send the same events as corev2 protobuf Events.
// Prints one JSON line.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { summary } from './latency.js';
import { encodeProtobuf } from '../../../src/agentd/proto/codec.js';

// This process's own CPU time: what the load generator took of the shared machine.
const cpuMs = () => Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000);
const [mode, url, password, ...rest] = process.argv.slice(2) as [string, string, string, ...string[]];
const authorization = 'Basic ' + Buffer.from(`agent:${password}`).toString('base64');

// Only the flat-out mode speaks protobuf: the held agents and the probe stay JSON.
const protobuf = mode === 'rate' && rest[2] === 'protobuf';
const accept = protobuf ? { accept: 'application/octet-stream' } : {};

function open(name: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', 'Sensu-Subscriptions': 'bench', authorization, ...accept },
      perMessageDeflate: false,
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.on('message', () => undefined);
  });
}

const keepaliveBody = (name: string) => ({
  entity: { metadata: { name }, entity_class: 'agent', system: { hostname: name, os: 'linux' }, sensu_agent_version: '6.12.0' },
  check: { metadata: { name: 'keepalive' }, interval: 20, timeout: 120, ttl: 0 },
  timestamp: Math.floor(Date.now() / 1000),
});
const eventBody = (name: string, check: string, i: number) => ({
  entity: { metadata: { name }, entity_class: 'agent' },
  check: { metadata: { name: check }, status: i % 3 === 0 ? 1 : 0, output: `output ${i}`, interval: 10, executed: Math.floor(Date.now() / 1000) },
  timestamp: Math.floor(Date.now() / 1000),
});
// One frame, `type\npayload`, its payload in the session's format.
const frameOf = (type: string, body: Record<string, unknown>): Buffer | string =>
  protobuf ? Buffer.concat([Buffer.from(`${type}\n`), encodeProtobuf('Event', body)]) : `${type}\n${JSON.stringify(body)}`;
const keepalive = (name: string) => frameOf('keepalive', keepaliveBody(name));
const event = (name: string, check: string, i: number) => frameOf('event', eventBody(name, check, i));
const sendAsync = (ws: WebSocket, data: Buffer | string) =>
  new Promise<void>((resolve, reject) => ws.send(data, (error) => (error ? reject(error) : resolve())));

/** Opens `count` agents, `width` handshakes at a time; each sends its first keepalive once connected, as the agent does. */
async function openAll(prefix: string, count: number, width: number): Promise<WebSocket[]> {
  const sockets: WebSocket[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        sockets[i] = await open(`${prefix}-${i}`);
        sockets[i].send(keepalive(`${prefix}-${i}`));
      }
    }),
  );
  return sockets;
}

if (mode === 'hold') {
  const [v2, token, agents, keepaliveS, eventS, holdS] = rest as [string, string, ...string[]];
  const [count, kS, eS, hS] = [agents, keepaliveS, eventS, holdS].map(Number) as [number, number, number, number];
  const connectStart = performance.now();
  const sockets = await openAll('held', count, 200);
  const connectS = (performance.now() - connectStart) / 1000;
  let keepalives = 0;
  let events = 0;
  const timers: NodeJS.Timeout[] = [];
  sockets.forEach((ws, i) => {
    const name = `held-${i}`;
    keepalives += 1;
    // Spread over the interval: not every agent in the same millisecond.
    const offset = Math.floor((i / count) * 1000 * Math.min(kS, eS));
    timers.push(
      setTimeout(() => {
        timers.push(setInterval(() => void (ws.send(keepalive(name)), (keepalives += 1)), kS * 1000));
        let n = 0;
        timers.push(setInterval(() => void (ws.send(event(name, 'bench', n++)), (events += 1)), eS * 1000));
      }, offset),
    );
  });
  // Four probes a second: a p99 of 60 samples would be their maximum.
  const PROBE_MS = 250;
  const probe = await open('probe');
  // A bearer token, or a whole header value (`Key <api key>`: a hold longer than a token's 5 minutes).
  const authorization = token.includes(' ') ? token : `Bearer ${token}`;
  const latencies: number[] = [];
  const endAt = Date.now() + hS * 1000;
  for (let k = 0; Date.now() < endAt; k += 1) {
    const started = performance.now();
    probe.send(event('probe', `probe-${k}`, k));
    for (;;) {
      const reply = await fetch(`${v2}/api/core/v2/namespaces/default/events/probe/probe-${k}`, { headers: { authorization } });
      await reply.arrayBuffer();
      if (reply.status === 200) break;
      await sleep(5);
    }
    latencies.push(performance.now() - started);
    await sleep(Math.max(0, PROBE_MS - (performance.now() - started)));
  }
  for (const timer of timers) clearInterval(timer);
  const sentAt = Math.floor(Date.now() / 1000);
  process.stdout.write(
    JSON.stringify({
      agents: count,
      connect_s: +connectS.toFixed(2),
      keepalives_sent: keepalives,
      events_sent: events,
      last_send_s: sentAt,
      probes: latencies.length,
      ...summary(latencies, 'stored'),
      stored_max_ms: +Math.max(...latencies).toFixed(2),
    }) + '\n',
  );
  for (const ws of [...sockets, probe]) ws.terminate();
} else {
  const [agents, perAgent] = rest.map(Number) as [number, number];
  const sockets = await openAll('rate', agents, 100);
  const started = performance.now();
  let bytes = 0;
  await Promise.all(
    sockets.map(async (ws, i) => {
      const name = `rate-${i}`;
      for (let n = 0; n < perAgent; n += 1) {
        const frame = event(name, 'flat-out', n);
        bytes += frame.length;
        ws.send(frame);
        // What the agent does too: one write at a time (its send queue), waiting when the socket's buffer is full.
        if (ws.bufferedAmount > 1 << 20) while (ws.bufferedAmount > 1 << 18) await sleep(1);
      }
      await sendAsync(ws, event(name, 'done', 0));
    }),
  );
  process.stdout.write(
    JSON.stringify({
      agents,
      sent: agents * perAgent,
      format: protobuf ? 'protobuf' : 'json',
      bytes_per_event: Math.round(bytes / (agents * perAgent)),
      send_s: +((performance.now() - started) / 1000).toFixed(2),
      started_at_ms: Date.now() - (performance.now() - started),
      cpu_ms: cpuMs(),
    }) + '\n',
  );
  for (const ws of sockets) ws.close();
}
