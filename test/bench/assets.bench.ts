// A check whose command comes from a cached asset beside the same command without assets, in one run (< 10 %).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { Limiter } from '../../src/execute/limiter.js';
import { RemoteSpawner } from '../../src/execute/remote-spawner.js';
import type { spawnCommand } from '../../src/execute/spawn.js';
import { runCheck } from '../../src/execute/check-run.js';
import { AssetCache } from '../../src/assets/cache.js';
import { RuntimeAssets, withAssets } from '../../src/assets/runtime.js';
import { hostSystem } from '../../src/assets/host-system.js';
import { systemClock } from '../../src/schedule/index.js';
import { makeTestCa } from '../helpers/tls.js';
import { startAssetServer } from '../servers/asset-server.js';
import { tarGz, sha512 } from '../helpers/archives.js';

export async function benchAssets(report: (figure: object) => void): Promise<void> {
  const count = Number(process.env.BENCH_EXECUTIONS ?? 1000);
  const rounds = 8;
  const ca = makeTestCa();
  const server = await startAssetServer(ca);
  const state = mkdtempSync(join(tmpdir(), 'checkbridge-bench-assets-'));
  const archive = await tarGz({ 'bin/bench-tool': '#!/bin/sh\nexit 0\n' });
  server.serve('/bench.tar.gz', { body: archive });
  const definitions = new Map([
    ['bench', { url: server.url('/bench.tar.gz'), sha512: sha512(archive), filters: ["entity.system.os == 'linux' || entity.system.os == 'darwin'"] }],
  ]);
  const log = pino({ level: 'silent' });
  const cache = new AssetCache(join(state, 'assets'), log, () => ca.caFile);
  const entity = { metadata: { name: 'bench', namespace: 'default', labels: {} }, entity_class: 'agent', subscriptions: [], system: hostSystem() };
  const assets = new RuntimeAssets(cache, () => entity, log).resolver((name) => definitions.get(name) ?? null);
  const warm = await assets(['bench']);
  if (!warm.ok) throw new Error(warm.output);
  const installed = warm.prepend.PATH![0]!;

  const spawner = new RemoteSpawner();
  const limiter = new Limiter(12);
  const run = (command: string, options: Parameters<typeof spawnCommand>[1]) => limiter.run(() => spawner.spawn(command, options));
  const client = { name: 'bench', address: '127.0.0.1', subscriptions: [] };
  const variants = {
    with_assets: (i: number) =>
      runCheck(
        { name: `check_${i}`, command: 'bench-tool', runtime_assets: ['bench'], timeout: 10 },
        { client, run, clock: systemClock, prepare: (r, definition) => withAssets(r, assets, definition.runtime_assets) },
      ),
    without_assets: (i: number) => runCheck({ name: `check_${i}`, command: `${installed}/bench-tool`, timeout: 10 }, { client, run, clock: systemClock }),
  };
  const seconds = { with_assets: 0, without_assets: 0 };
  // Alternating rounds, so drift in the machine's load falls on both alike.
  for (let round = 0; round < rounds; round++) {
    for (const name of ['with_assets', 'without_assets'] as const) {
      const start = performance.now();
      const results = await Promise.all(Array.from({ length: count / rounds }, (_, i) => variants[name](i)));
      seconds[name] += (performance.now() - start) / 1000;
      if (results.some((r) => r.check.status !== 0)) throw new Error(`a ${name} execution failed: ${results.find((r) => r.check.status !== 0)!.check.output}`);
    }
  }
  await spawner.close();
  await server.close();
  ca.remove();
  rmSync(state, { recursive: true, force: true });
  const withRate = count / seconds.with_assets;
  const withoutRate = count / seconds.without_assets;
  report({
    bench: 'assets.cached_check',
    executions: count,
    with_assets_per_s: Math.round(withRate),
    without_assets_per_s: Math.round(withoutRate),
    ratio: +(withRate / withoutRate).toFixed(3),
    asset_cost_pct: +((1 - withRate / withoutRate) * 100).toFixed(1),
    downloads: server.hits('/bench.tar.gz'),
  });
}
