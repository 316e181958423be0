// npm run bench: every benchmark, one JSON line per figure on stdout.
import { benchConfigLoad } from './config-load.bench.js';
import { benchExecute } from './execute.bench.js';
import { benchIntake } from './intake.bench.js';
import { benchHandlers } from './handlers.bench.js';
import { benchV2Api } from './v2-api.bench.js';
import { benchBridge } from './bridge.bench.js';
import { benchCompile } from './compile.bench.js';
import { benchPostgres } from './postgres.bench.js';
import { benchAssets } from './assets.bench.js';
import { benchTransport } from './transport.bench.js';

const only = process.argv[2];
const benches: Record<string, (report: (figure: object) => void) => Promise<void>> = {
  config: benchConfigLoad,
  execute: benchExecute,
  intake: benchIntake,
  handlers: benchHandlers,
  v2: benchV2Api,
  bridge: benchBridge,
  compile: benchCompile,
  postgres: benchPostgres,
  assets: benchAssets,
  transport: benchTransport,
};

const report = (figure: object) => process.stdout.write(JSON.stringify({ ...figure, node: process.version }) + '\n');
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  await bench(report);
}
