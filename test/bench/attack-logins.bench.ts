import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { WebSocket } from 'ws';
import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon, ADMIN_PASSWORD } from './load/daemon.js';
import { nodeStartMs, summary } from './load/latency.js';

const AGENT_PASSWORD = 'bench-agent-password';
const REST_S = Number(process.env.CHECKBRIDGE_BENCH_REST_S ?? 5);
const ATTACK_S = Number(process.env.CHECKBRIDGE_BENCH_ATTACK_S ?? 10);
// 40 concurrent wrong `/auth` for a user with the highest cost allowed, 16 parallel wrong handshakes.
const LOGINS = 40;
const HANDSHAKES = 16;
const COST = 12;
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

/** One GET /auth from `localAddress`; its status. */
function login(v2: string, localAddress: string, authorization: string): Promise<number> {
  const url = new URL(`${v2}/auth`);
  return new Promise((resolve) => {
    const req = request({ host: url.hostname, port: url.port, path: '/auth', headers: { authorization }, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** One agent handshake from `localAddress`; 101 or the refusal's status. */
function handshake(url: string, localAddress: string, name: string, authorization: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', authorization }, localAddress });
    ws.once('open', () => (ws.terminate(), resolve(101)));
    ws.once('unexpected-response', (_request, response) => (response.resume(), resolve(response.statusCode ?? 0), ws.terminate()));
    ws.once('error', () => resolve(0));
  });
}

/** /health polled one request after another for `seconds`: every latency, in ms. */
async function pollHealth(v2: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    await (await fetch(`${v2}/health`)).arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** /health latency at rest, then under wrong-password attack at `/auth` and the agent WebSocket, in the same run. */
export async function benchAttackLogins(report: (figure: object) => void): Promise<void> {
  const root = makeTree({});
  const { daemon, v2 } = await benchDaemon(root, { 'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } } }, [], {
    CHECKBRIDGE_AGENT_PASSWORD: AGENT_PASSWORD,
  });
  const line = await daemon.waitFor((l) => l.msg === 'agent WebSocket listening', 30_000);
  const agentd = `ws://${String(line.address)}`;
  try {
    const token = ((await (await fetch(`${v2}/auth`, { headers: { authorization: basic('admin', ADMIN_PASSWORD) } })).json()) as { access_token: string })
      .access_token;
    const hash = await bcrypt.hash('slow-pass-1', COST);
    const put = await fetch(`${v2}/api/core/v2/users/slow`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'slow', password_hash: hash, groups: [] }),
    });
    if (put.status !== 201) throw new Error(`creating the cost-${COST} user answered ${put.status}`);
    const rest = await pollHealth(v2, REST_S);
    const statuses: Record<string, number> = {};
    const tally = (status: number) => void (statuses[status] = (statuses[status] ?? 0) + 1);
    let attacking = true;
    // Each attacker starts its next guess as soon as the last is answered, Retry-After ignored, as an attacker would.
    const attackers = [
      ...Array.from({ length: LOGINS }, async (_, i) => {
        for (let n = 0; attacking; n++) tally(await login(v2, `127.0.1.${1 + (i % 10)}`, basic('slow', `wrong-${i}-${n}`)));
      }),
      ...Array.from({ length: HANDSHAKES }, async (_, i) => {
        for (let n = 0; attacking; n++) tally(await handshake(agentd, `127.0.2.${1 + (i % 4)}`, `spray-${i}`, basic('slow', `wrong-${i}-${n}`)));
      }),
    ];
    const attacked = await pollHealth(v2, ATTACK_S);
    attacking = false;
    await Promise.all(attackers);
    report({
      bench: 'attack-logins',
      cost: COST,
      logins: LOGINS,
      handshakes: HANDSHAKES,
      attack_s: ATTACK_S,
      ...summary(rest, 'health_rest'),
      ...summary(attacked, 'health_attack'),
      health_attack_max_ms: +Math.max(...attacked).toFixed(2),
      health_rest_n: rest.length,
      health_attack_n: attacked.length,
      answers: statuses,
      node_e_0_ms: nodeStartMs(),
    });
  } finally {
    await daemon.stop();
    removeTree(root);
  }
}
