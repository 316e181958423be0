import { performance } from 'node:perf_hooks';
import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon, ADMIN_PASSWORD } from './load/daemon.js';
import { nodeStartMs, summary } from './load/latency.js';

const REST_S = Number(process.env.CHECKBRIDGE_BENCH_REST_S ?? 5);
const ATTACK_S = Number(process.env.CHECKBRIDGE_BENCH_ATTACK_S ?? 10);
// A /health that outlasts this is counted at this: a build that blocks for minutes is not waited for.
const HEALTH_CAP_MS = Number(process.env.CHECKBRIDGE_BENCH_HEALTH_CAP_MS ?? 60_000);
// The issue's two bodies: 8,000 hook types (108 KB) and as many as the 512 KB body limit takes (~37,000).
const ATTACKS = [8_000, 37_000] as const;
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

/** A hook list body of `types` distinct types, each naming one hook. */
const hookBody = (types: number) => JSON.stringify(Object.fromEntries(Array.from({ length: types }, (_, i) => [i.toString(36), ['h']])));

/** /health asked one request after another for `seconds`: every latency in ms, a timed-out one at HEALTH_CAP_MS. */
async function pollHealth(v2: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    const answered = await fetch(`${v2}/health`, { signal: AbortSignal.timeout(HEALTH_CAP_MS) }).then(
      (r) => r.arrayBuffer().then(() => true),
      () => false,
    );
    latencies.push(answered ? performance.now() - started : HEALTH_CAP_MS);
  }
  return latencies;
}

async function requestJson(url: string, method: string, authorization: string, body: string): Promise<number> {
  const reply = await fetch(url, { method, headers: { authorization, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(HEALTH_CAP_MS) });
  await reply.arrayBuffer();
  return reply.status;
}

/** One build (`bin`, or this one): /health at rest, then while an edit user PUTs each attack body in a loop. */
async function attackBuild(report: (figure: object) => void, build: string, bin: string | undefined): Promise<void> {
  const root = makeTree({});
  const saved = process.env.CHECKBRIDGE_BENCH_BIN;
  if (bin) process.env.CHECKBRIDGE_BENCH_BIN = bin;
  else delete process.env.CHECKBRIDGE_BENCH_BIN;
  const { daemon, v2 } = await benchDaemon(root, { 'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } } });
  if (saved === undefined) delete process.env.CHECKBRIDGE_BENCH_BIN;
  else process.env.CHECKBRIDGE_BENCH_BIN = saved;
  try {
    const login = async (user: string, password: string) =>
      `Bearer ${((await (await fetch(`${v2}/auth`, { headers: { authorization: basic(user, password) } })).json()) as { access_token: string }).access_token}`;
    const admin = await login('admin', ADMIN_PASSWORD);
    const ns = `${v2}/api/core/v2/namespaces/default`;
    const setUp = [
      requestJson(`${v2}/api/core/v2/users/editor`, 'PUT', admin, JSON.stringify({ username: 'editor', password: 'editor-pass', groups: [] })),
      requestJson(
        `${ns}/rolebindings/editor`,
        'PUT',
        admin,
        JSON.stringify({ metadata: { name: 'editor' }, role_ref: { type: 'ClusterRole', name: 'edit' }, subjects: [{ type: 'User', name: 'editor' }] }),
      ),
    ];
    if ((await Promise.all(setUp)).some((status) => status !== 201)) throw new Error('creating the edit user failed');
    const editor = await login('editor', 'editor-pass');
    const check = (name: string) => JSON.stringify({ metadata: { name }, command: 'true', interval: 60, subscriptions: ['linux'] });
    const rest = await pollHealth(v2, REST_S);
    const figures: Record<string, unknown> = { ...summary(rest, 'health_rest'), health_rest_n: rest.length };
    for (const types of ATTACKS) {
      const body = hookBody(types);
      const name = `own-${types}`;
      if ((await requestJson(`${ns}/checks/${name}`, 'PUT', editor, check(name))) !== 201) throw new Error(`creating check ${name} failed`);
      let attacking = true;
      const statuses: Record<string, number> = {};
      // The attacker sends the next body as soon as the last is answered, each a new check's worth of types.
      const attacker = (async () => {
        while (attacking) {
          const status = await requestJson(`${ns}/checks/${name}/hooks/critical`, 'PUT', editor, body).catch(() => 0);
          statuses[status] = (statuses[status] ?? 0) + 1;
          await requestJson(`${ns}/checks/${name}`, 'PUT', editor, check(name)).catch(() => 0);
        }
      })();
      const attacked = await pollHealth(v2, ATTACK_S);
      attacking = false;
      // A build that is still busy with one body is not waited for: the daemon is stopped below.
      await Promise.race([attacker, new Promise((resolve) => setTimeout(resolve, 1000))]);
      Object.assign(figures, {
        [`body_${types}_bytes`]: body.length,
        ...summary(attacked, `health_attack_${types}`),
        [`health_attack_${types}_max_ms`]: +Math.max(...attacked).toFixed(2),
        [`health_attack_${types}_n`]: attacked.length,
        [`puts_${types}`]: statuses,
      });
    }
    report({ bench: 'attack-hooks', build, rest_s: REST_S, attack_s: ATTACK_S, health_cap_ms: HEALTH_CAP_MS, ...figures, node_e_0_ms: nodeStartMs() });
  } finally {
    await daemon.stop('SIGKILL');
    removeTree(root);
  }
}

/**
 * /health at rest and while an edit user sends check-hook bodies of 8,000 and ~37,000 types in a loop; with
 * CHECKBRIDGE_BENCH_OLD_BIN set, the same for that build in the same run (before and after a change).
 */
export async function benchAttackHooks(report: (figure: object) => void): Promise<void> {
  await attackBuild(report, 'this', process.env.CHECKBRIDGE_BENCH_BIN);
  if (process.env.CHECKBRIDGE_BENCH_OLD_BIN) await attackBuild(report, 'old', process.env.CHECKBRIDGE_BENCH_OLD_BIN);
}
