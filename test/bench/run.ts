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
import { benchStartup, benchValidate10k } from './cli.bench.js';
import { benchSocket } from './socket.bench.js';
import { benchV2Wrk } from './v2-wrk.bench.js';
import { benchDaemonScale } from './daemon-scale.bench.js';
import { benchTransport } from './transport.bench.js';
import { benchSharedStore } from './shared-store.bench.js';
import { benchFilters } from './filters.bench.js';
import { benchV2Schedule } from './v2-schedule.bench.js';
import { benchAgentd } from './agentd.bench.js';
import { benchAttackLogins } from './attack-logins.bench.js';
import { benchAttackSandbox } from './attack-sandbox.bench.js';
import { benchAttackFrames } from './attack-frames.bench.js';
import { benchAttackProto } from './attack-proto.bench.js';
import { benchAttackHooks } from './attack-hooks.bench.js';
import { benchSoak } from './soak.bench.js';
import { benchRest } from './rest.bench.js';
import { benchVsSensuGo } from './vs-sensu-go.bench.js';
import { benchPgLatency } from './pg-latency.bench.js';
import { benchRehearsal } from './rehearsal.bench.js';

const only = process.argv[2];
const benches: Record<string, (report: (figure: object) => void) => Promise<void>> = {
  // The throughput rows, each with its same-run baseline.
  startup: benchStartup,
  'validate-10k': benchValidate10k,
  'socket-intake': (report) => benchSocket(report, 'socket-intake'),
  'socket-one-per-connection': (report) => benchSocket(report, 'socket-one-per-connection'),
  // The migration rehearsal's CPU per result, beside a daemon with --no-rehearsal in the same run.
  rehearsal: benchRehearsal,
  'v2-put-wrk': benchV2Wrk,
  // rss and execute-ratio: one daemon with 10,000 checks and 1 M history rows.
  'daemon-scale': benchDaemonScale,
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
  'shared-store': benchSharedStore,
  // EventFilter and asset filter expressions: the sandbox beside the node:vm path it replaced.
  filters: benchFilters,
  // v2 CheckConfig scheduling beside the legacy scheduler.
  'v2-schedule': benchV2Schedule,
  // Sensu Go agents over the agent WebSocket beside the socket intake.
  agentd: benchAgentd,
  // /health at rest and under each attack on availability, same run: password guesses, busy expressions, large frames.
  'attack-logins': benchAttackLogins,
  'attack-sandbox': benchAttackSandbox,
  'attack-frames': benchAttackFrames,
  // Protobuf frames packed with empty repeated entries: CHECKBRIDGE_BENCH_BEFORE_BIN adds another build's row.
  'attack-proto': benchAttackProto,
  // /health while an edit user sends the largest check-hook bodies; CHECKBRIDGE_BENCH_OLD_BIN adds a build before the change.
  'attack-hooks': benchAttackHooks,
  // 2,000 agents and 500 legacy clients held SOAK_SECONDS (default 600) with handlers running: memory plateaus, nothing lost.
  soak: benchSoak,
  // The daemon at rest beside the real sensu-backend: start to /health, idle RSS and CPU.
  rest: benchRest,
  // The same agents and API load against the real Sensu Go backend, same run.
  'vs-sensu-go': benchVsSensuGo,
  // The daemon on PostgreSQL behind a delaying proxy (0, 0.5, 2 ms added round trip) beside it on SQLite; two servers on one PostgreSQL.
  'pg-latency': benchPgLatency,
};

const report = (figure: object) => process.stdout.write(JSON.stringify({ ...figure, node: process.version }) + '\n');
if (only && !Object.hasOwn(benches, only)) throw new Error(`no bench named ${only}: ${Object.keys(benches).join(', ')}`);
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  await bench(report);
}
