// Simulated Sensu Go agents for the pg-latency bench, in their own process; one JSON line per phase.
//   node pg-agents.js URL PASSWORD PREFIX AGENTS SECONDS RATE
//     AGENTS agents connect (each sends its keepalive and one event), print {phase:'connected'}, wait for a line on stdin
//     (the bench has seen those stored), print {phase:'started'}, then send events for SECONDS: flat out (RATE 0: as fast
//     as each socket takes them, at most 64 KB waiting in each) or RATE events/s in all, spread over the agents; then
//     print {phase:'end', sent} and leave.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';

const [url, password, prefix, ...rest] = process.argv.slice(2) as [string, string, string, ...string[]];
const [agents, seconds, rate] = rest.map(Number) as [number, number, number];
const authorization = 'Basic ' + Buffer.from(`agent:${password}`).toString('base64');
const print = (line: object) => process.stdout.write(JSON.stringify(line) + '\n');

function open(name: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', 'Sensu-Subscriptions': 'bench', authorization },
      perMessageDeflate: false,
      handshakeTimeout: 60_000,
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.on('message', () => undefined);
  });
}

const now = () => Math.floor(Date.now() / 1000);
const keepalive = (name: string) =>
  'keepalive\n' +
  JSON.stringify({
    entity: { metadata: { name, namespace: 'default' }, entity_class: 'agent', system: { hostname: name, os: 'linux' }, sensu_agent_version: '6.12.0' },
    check: { metadata: { name: 'keepalive', namespace: 'default' }, interval: 20, timeout: 3600, ttl: 0 },
    timestamp: now(),
  });
const event = (name: string, i: number) =>
  'event\n' +
  JSON.stringify({
    entity: { metadata: { name, namespace: 'default' }, entity_class: 'agent' },
    check: { metadata: { name: 'flat-out', namespace: 'default' }, status: i % 3 === 0 ? 1 : 0, output: `output ${i}`, interval: 10, executed: now() },
    timestamp: now(),
  });

const names = Array.from({ length: agents }, (_, i) => `${prefix}-${i}`);
const sockets: WebSocket[] = new Array(agents);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(50, agents) }, async () => {
    while (next < agents) {
      const i = next++;
      sockets[i] = await open(names[i]!);
      sockets[i].send(keepalive(names[i]!));
    }
  }),
);
sockets.forEach((ws, i) => ws.send(event(names[i]!, 0)));
print({ phase: 'connected', agents });
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
print({ phase: 'started' });
const started = performance.now();
const endAt = started + seconds * 1000;
let sent = 0;
if (rate === 0) {
  await Promise.all(
    sockets.map(async (ws, i) => {
      for (let n = 0; performance.now() < endAt; n += 1) {
        ws.send(event(names[i]!, n));
        sent += 1;
        // What the agent does: one write at a time, waiting while the socket's buffer is full.
        while (ws.bufferedAmount > 1 << 16 && performance.now() < endAt) await sleep(2);
      }
    }),
  );
} else {
  // Every 20 ms, what the rate owes so far, round robin over the agents.
  for (let turn = 0; performance.now() < endAt; turn++) {
    const owed = Math.floor((rate * (performance.now() - started)) / 1000) - sent;
    for (let k = 0; k < owed; k++, sent++) sockets[sent % agents]!.send(event(names[sent % agents]!, sent));
    await sleep(20);
  }
}
print({ phase: 'end', sent, seconds: +((performance.now() - started) / 1000).toFixed(2) });
for (const ws of sockets) ws.terminate();
