// The v2 API with the dashboard in-process, its configuration a tree of files (conf.d/ under the tree's root), the
// legacy API beside it, on a real SQLite store and intake at a manual clock; closed and removed after the test.
import type { TestContext } from 'node:test';
import { join } from 'node:path';
import { buildV2Api, type V2ApiDeps } from '../../src/api/v2/server.js';
import { buildLegacyApi } from '../../src/api/legacy/server.js';
import { issueTokens } from '../../src/api/v2/auth.js';
import { TokenIssuer, newSigningKey } from '../../src/auth/tokens.js';
import { loadSettings } from '../../src/config/index.js';
import { Intake } from '../../src/intake/intake.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { spawnCommand } from '../../src/execute/spawn.js';
import { sqliteStore } from './sqlite-store.js';
import { capturedLogger } from './log-capture.js';
import { makeTree, removeTree } from './tree.js';

export async function dashboardApi(t: TestContext, files: Record<string, unknown>, nowMs: number) {
  const root = makeTree(files as Parameters<typeof makeTree>[0]);
  t.after(() => removeTree(root));
  const sources = { configFile: null, configDirs: [join(root, 'conf.d')] };
  const settings = loadSettings(sources, {}).settings!;
  const store = sqliteStore(t);
  const clock = new ManualClock(nowMs);
  const { logger } = capturedLogger();
  const intake = new Intake(store, () => settings, clock, logger);
  const legacy = buildLegacyApi({ store, settings: () => settings, intake, logger, clock, requestCheck: () => true });
  const deps: V2ApiDeps = {
    store,
    intake,
    tokens: new TokenIssuer(newSigningKey()),
    logger,
    clock,
    spawn: spawnCommand,
    dashboard: { legacy, settings: () => settings, sources, bridge: null, onEvent: (listener) => intake.topics.committed.subscribe(listener), webRoot: root },
  };
  const app = buildV2Api(deps);
  t.after(() => Promise.all([app.close(), legacy.close()]));
  store.resources.putUser('admin', { username: 'admin', groups: ['cluster-admins'] });
  const bearer = async (user: string, groups: string[]) => `Bearer ${(await issueTokens(deps, user, groups)).access_token}`;
  return { app, root, store, intake, deps, admin: await bearer('admin', ['cluster-admins']), bearer };
}
