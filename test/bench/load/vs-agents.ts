// Simulated Sensu Go agents for the comparison with the real backend, in their own process; one JSON line per phase.
//   node vs-agents.js rate URL PASSWORD AGENTS PER_AGENT DEADLINE_S
//     AGENTS agents connect (until DEADLINE_S), then each sends PER_AGENT events as fast as its socket takes them and one `done`.
//   node vs-agents.js hold URL PASSWORD API AUTHORIZATION PREFIX AGENTS HOLD_S DEADLINE_S
//     AGENTS agents connect (until DEADLINE_S), then each sends a keepalive every 20 s and an event every 10 s for HOLD_S; a
//     probe agent four times a second sends an event and polls API until it is stored (send-to-stored latency).
// Lines: {phase:'connected', connected, failed, connect_s} once connecting ends; then {phase:'sent'} or {phase:'end'} with the figures.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { summary } from './latency.js';

const [mode, url, password, ...rest] = process.argv.slice(2) as [string, string, string, ...string[]];
const authorization = 'Basic ' + Buffer.from(`agent:${password}`).toString('base64');
const print = (line: object) => process.stdout.write(JSON.stringify(line) + '\n');

/** One agent's handshake, given up at `deadline` (ms since the epoch). */
function open(name: string, deadline: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', 'Sensu-Subscriptions': 'bench', authorization },
      perMessageDeflate: false,
      handshakeTimeout: Math.max(1, deadline - Date.now()),
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => (ws.terminate(), reject(new Error(`handshake answered ${response.statusCode}`))));
    ws.on('message', () => undefined);
  });
}

// A keepalive timeout longer than the run: agents that leave at a step's end raise no failures during the next step.
const keepalive = (name: string) =>
  'keepalive\n' +
  JSON.stringify({
    entity: { metadata: { name, namespace: 'default' }, entity_class: 'agent', system: { hostname: name, os: 'linux' }, sensu_agent_version: '6.12.0' },
    check: { metadata: { name: 'keepalive', namespace: 'default' }, interval: 20, timeout: 3600, ttl: 0 },
    timestamp: Math.floor(Date.now() / 1000),
  });
const event = (name: string, check: string, i: number) =>
  'event\n' +
  JSON.stringify({
    entity: { metadata: { name, namespace: 'default' }, entity_class: 'agent' },
    check: {
      metadata: { name: check, namespace: 'default' },
      status: i % 3 === 0 ? 1 : 0,
      output: `output ${i}`,
      interval: 10,
      executed: Math.floor(Date.now() / 1000),
    },
    timestamp: Math.floor(Date.now() / 1000),
  });

/** Opens up to `count` agents, 200 handshakes at a time, each sending its first keepalive; a refused one is tried again until the deadline. */
async function openAll(prefix: string, count: number, deadlineS: number): Promise<{ sockets: WebSocket[]; names: Map<WebSocket, string> }> {
  const started = performance.now();
  const deadline = Date.now() + deadlineS * 1000;
  const sockets: WebSocket[] = [];
  const names = new Map<WebSocket, string>();
  let [next, failed] = [0, 0];
  const reasons: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: Math.min(200, count) }, async () => {
      while (next < count && Date.now() < deadline) {
        const name = `${prefix}-${next++}`;
        for (;;) {
          try {
            const ws = await open(name, deadline);
            ws.send(keepalive(name));
            sockets.push(ws);
            names.set(ws, name);
            break;
          } catch (error) {
            failed += 1;
            reasons[(error as Error).message] = (reasons[(error as Error).message] ?? 0) + 1;
            if (Date.now() + 1000 >= deadline) break;
            await sleep(1000);
          }
        }
      }
    }),
  );
  const connectS = +((performance.now() - started) / 1000).toFixed(2);
  print({ phase: 'connected', connected: sockets.length, failed, reasons, connect_s: connectS });
  return { sockets, names };
}

if (mode === 'hold') {
  const [api, apiAuthorization, prefix, agents, holdS, deadlineS] = rest as [string, string, string, string, string, string];
  const probe = await open(`${prefix}-probe`, Date.now() + Number(deadlineS) * 1000);
  const { sockets, names } = await openAll(prefix, Number(agents), Number(deadlineS));
  let [keepalives, events] = [sockets.length, 0];
  const timers: NodeJS.Timeout[] = [];
  sockets.forEach((ws, i) => {
    const name = names.get(ws)!;
    // Spread over the interval: not every agent in the same millisecond.
    const offset = Math.floor((i / sockets.length) * 10_000);
    timers.push(
      setTimeout(() => {
        timers.push(setInterval(() => void (ws.send(keepalive(name)), (keepalives += 1)), 20_000));
        let n = 0;
        timers.push(setInterval(() => void (ws.send(event(name, 'bench', n++)), (events += 1)), 10_000));
      }, offset),
    );
  });
  const latencies: number[] = [];
  const endAt = Date.now() + Number(holdS) * 1000;
  for (let k = 0; Date.now() < endAt; k += 1) {
    const started = performance.now();
    probe.send(event(`${prefix}-probe`, `probe-${k}`, k));
    for (;;) {
      // A pooled connection the server closed meanwhile fails the read: read again.
      const status = await fetch(`${api}/api/core/v2/namespaces/default/events/${prefix}-probe/probe-${k}`, {
        headers: { authorization: apiAuthorization },
      }).then(
        async (reply) => (await reply.arrayBuffer(), reply.status),
        () => 0,
      );
      // A server that lost the probe's event still ends the probe: its latency shows as over a minute.
      if (status === 200 || performance.now() - started > 60_000) break;
      await sleep(5);
    }
    latencies.push(performance.now() - started);
    await sleep(Math.max(0, 250 - (performance.now() - started)));
  }
  for (const timer of timers) clearInterval(timer);
  print({ phase: 'end', agents: sockets.length, keepalives_sent: keepalives, events_sent: events, probes: latencies.length, ...summary(latencies, 'stored') });
  for (const ws of [...sockets, probe]) ws.terminate();
} else {
  const [agents, perAgent, deadlineS] = rest.map(Number) as [number, number, number];
  const { sockets, names } = await openAll('rate', agents, deadlineS);
  const started = Date.now();
  await Promise.all(
    sockets.map(async (ws) => {
      const name = names.get(ws)!;
      for (let n = 0; n < perAgent; n += 1) {
        ws.send(event(name, 'flat-out', n));
        // What the agent does too: one write at a time, waiting when the socket's buffer is full.
        if (ws.bufferedAmount > 1 << 20) while (ws.bufferedAmount > 1 << 18) await sleep(1);
      }
      await new Promise<void>((resolve, reject) => ws.send(event(name, 'done', 0), (error) => (error ? reject(error) : resolve())));
    }),
  );
  print({ phase: 'sent', agents: sockets.length, events: sockets.length * (perAgent + 1), started_at_ms: started, names: [...names.values()] });
  for (const ws of sockets) ws.close();
}
