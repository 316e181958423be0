import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { StateStore } from '../../src/store/index.js';
import { buildV2Api } from '../../src/api/v2/server.js';
import { TokenIssuer, newSigningKey } from '../../src/auth/tokens.js';
import { ensureAdmin } from '../../src/auth/bootstrap.js';
import { createLogger } from '../../src/log.js';
import { Intake } from '../../src/intake/intake.js';
import { systemClock } from '../../src/schedule/clock.js';
import { settingsOf } from '../helpers/settings.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const p = (sorted: number[], q: number) => +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);

/** `count` PUTs over `width` keep-alive connections (undici Pool: the global fetch was the bottleneck); requests/s and latencies. */
async function drive(origin: string, path: (i: number) => string, body: (i: number) => string, headers: Record<string, string>, count: number, width: number) {
  const pool = new Pool(origin, { connections: width, pipelining: 1 });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const response = await pool.request({ path: path(i), method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: body(i) });
        await response.body.dump();
        if (response.statusCode !== 201) throw new Error(`PUT: ${response.statusCode}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const rate = count / ((performance.now() - started) / 1000);
  await pool.close();
  return { rate, latencies: latencies.sort((a, b) => a - b) };
}

/** Authenticated PUT of events (API key and bearer token) against a bare fastify handler, in the same run. */
export async function benchV2Api(report: (figure: object) => void): Promise<void> {
  const dir = makeTree({});
  const logger = createLogger('silent');
  const store = StateStore.open(join(dir, 'bench.db'));
  await ensureAdmin(store.resources, { CHECKBRIDGE_ADMIN_PASSWORD: 'bench-password' }, () => undefined);
  // As the daemon's v2 API, without the entity limit (no entity gate was given before the one intake).
  const settings = settingsOf({ client: { name: 'bench', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  const intake = new Intake(store, () => settings, systemClock, logger);
  const app = buildV2Api({
    store,
    tokens: new TokenIssuer(store.resources.secret('jwt-hs256', newSigningKey)),
    logger,
    clock: systemClock,
    spawn: async () => ({ status: 0, output: '', timedOut: false, signal: null, durationMs: 0 }),
    intake,
  });
  const bare = Fastify({ logger: false });
  bare.put('/api/core/v2/namespaces/:ns/events/:entity/:check', (_request, reply) => reply.code(201).send());
  try {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });
    const basic = 'Basic ' + Buffer.from('admin:bench-password').toString('base64');
    const token = ((await (await fetch(`${base}/auth`, { headers: { authorization: basic } })).json()) as { access_token: string }).access_token;
    const grant = await fetch(`${base}/api/core/v2/apikeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin' }),
    });
    const key = grant.headers.get('location')!.split('/').pop()!;
    const path = (i: number) => `/api/core/v2/namespaces/default/events/host-${i % 500}/check-${i % 7}`;
    const body = (i: number) =>
      JSON.stringify({
        entity: { entity_class: 'proxy', metadata: { name: `host-${i % 500}` } },
        check: { metadata: { name: `check-${i % 7}` }, interval: 60, status: i % 3, output: `output ${i} `.repeat(20), executed: 1_700_000_000 + i },
      });
    const count = 10_000;
    const bareRun = await drive(bareBase, path, body, {}, count, 16);
    for (const [label, authorization] of [
      ['api_key', `Key ${key}`],
      ['bearer_token', `Bearer ${token}`],
    ] as const) {
      const run = await drive(base, path, body, { authorization }, count, 16);
      report({
        bench: `v2.put_event.${label}`,
        requests: count,
        requests_per_s: Math.round(run.rate),
        p50_ms: p(run.latencies, 0.5),
        p99_ms: p(run.latencies, 0.99),
        bare_fastify_per_s: Math.round(bareRun.rate),
        bare_p99_ms: p(bareRun.latencies, 0.99),
        ratio_to_bare: +(run.rate / bareRun.rate).toFixed(3),
      });
    }
  } finally {
    await app.close();
    await bare.close();
    store.close();
    removeTree(dir);
  }
}
