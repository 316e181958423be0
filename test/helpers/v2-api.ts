// The v2 API in-process over a fresh SQLite store and intake: its parts (a real token issuer, a captured logger, the
// system clock, the real spawner), and the API built from them, closed after the test; `bearer` signs a user in.
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildV2Api, type V2ApiDeps } from '../../src/api/v2/server.js';
import { issueTokens } from '../../src/api/v2/auth.js';
import { TokenIssuer, newSigningKey } from '../../src/auth/tokens.js';
import { systemClock } from '../../src/schedule/clock.js';
import { spawnCommand } from '../../src/execute/spawn.js';
import type { Intake } from '../../src/intake/intake.js';
import type { StateStore } from '../../src/store/index.js';
import { capturedLogger } from './log-capture.js';
import { sqliteIntake } from './sqlite-intake.js';

export interface V2Parts {
  readonly deps: V2ApiDeps;
  readonly store: StateStore;
  readonly intake: Intake;
}

export function v2Deps(t: TestContext, extra: Partial<V2ApiDeps> = {}): V2Parts {
  const { store, intake } = sqliteIntake(t);
  const deps: V2ApiDeps = {
    store,
    intake,
    tokens: new TokenIssuer(newSigningKey()),
    logger: capturedLogger().logger,
    clock: systemClock,
    spawn: spawnCommand,
    ...extra,
  };
  return { deps, store, intake };
}

export function v2App(
  t: TestContext,
  extra: Partial<V2ApiDeps> = {},
): V2Parts & { app: FastifyInstance; bearer(user: string, groups: string[]): Promise<string> } {
  const parts = v2Deps(t, extra);
  const app = buildV2Api(parts.deps);
  t.after(() => app.close());
  return { ...parts, app, bearer: async (user, groups) => `Bearer ${(await issueTokens(parts.deps, user, groups)).access_token}` };
}
