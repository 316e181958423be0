import { makeTree, removeTree } from '../helpers/tree.js';
import { benchDaemon, startBaseline, ADMIN_PASSWORD } from './load/daemon.js';
import { runWrk, wrkPath } from './load/wrk.js';

const RUNS = 3;

/** Authenticated v2 PUT of events on a whole `checkbridge run` with wrk (32 connections) beside a bare fastify handler. */
export async function benchV2Wrk(report: (figure: object) => void): Promise<void> {
  if (!wrkPath()) {
    report({
      bench: 'v2-put-wrk',
      skipped: 'wrk is not installed (Debian package wrk); test/bench/v2-api.bench.ts measures with undici instead (npm run bench -- v2)',
    });
    return;
  }
  const root = makeTree({});
  const { daemon, v2 } = await benchDaemon(root, {
    'client.json': { client: { name: 'bench', address: '127.0.0.1', subscriptions: [] } },
    'checkbridge.json': { checkbridge: { entity_limit: 0 } },
  });
  const bare = await startBaseline('bare-fastify-server');
  try {
    const basic = 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64');
    const token = ((await (await fetch(`${v2}/auth`, { headers: { authorization: basic } })).json()) as { access_token: string }).access_token;
    const grant = await fetch(`${v2}/api/core/v2/apikeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin' }),
    });
    const key = grant.headers.get('location')!.split('/').pop()!;
    await runWrk(root, v2, `Key ${key}`, 2); // warm-up: entities exist, JIT warm
    for (const [label, authorization] of [
      ['api_key', `Key ${key}`],
      ['bearer_token', `Bearer ${token}`],
    ] as const) {
      const runs = [];
      const bareRuns = [];
      for (let r = 0; r < RUNS; r++) {
        bareRuns.push(await runWrk(root, `http://127.0.0.1:${bare.port}`, null));
        runs.push(await runWrk(root, v2, authorization));
      }
      const mid = runs.sort((a, b) => a.requests_per_s - b.requests_per_s)[Math.floor(RUNS / 2)]!;
      const bareMid = bareRuns.sort((a, b) => a.requests_per_s - b.requests_per_s)[Math.floor(RUNS / 2)]!;
      report({
        bench: 'v2-put-wrk',
        row: `authenticated v2 PUT events (${label})`,
        tool: 'wrk -t2 -c32 -d5s',
        requests_per_s: mid.requests_per_s,
        runs: runs.map((r) => r.requests_per_s),
        p50_ms: mid.p50_ms,
        p99_ms: mid.p99_ms,
        non_2xx: mid.non_2xx,
        baseline: 'bare fastify PUT handler (same run, interleaved)',
        baseline_per_s: bareMid.requests_per_s,
        baseline_p99_ms: bareMid.p99_ms,
        ratio: +(mid.requests_per_s / bareMid.requests_per_s).toFixed(3),
        target_per_s: 20_000,
      });
    }
  } finally {
    await bare.stop();
    await daemon.stop('SIGKILL');
    removeTree(root);
  }
}
