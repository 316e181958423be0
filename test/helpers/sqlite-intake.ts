// The intake on a SQLite store in a private directory (no entity limit), both closed and removed after the test.
import type { TestContext } from 'node:test';
import type { StateStore } from '../../src/store/index.js';
import { Intake } from '../../src/intake/intake.js';
import { systemClock } from '../../src/schedule/clock.js';
import { settingsOf } from './settings.js';
import { capturedLogger } from './log-capture.js';
import { sqliteStore } from './sqlite-store.js';

export function sqliteIntake(t: TestContext): { store: StateStore; intake: Intake } {
  const store = sqliteStore(t);
  const settings = settingsOf({ client: { name: 'door', address: '127.0.0.1', subscriptions: [] }, checkbridge: { entity_limit: 0 } });
  return { store, intake: new Intake(store, () => settings, systemClock, capturedLogger().logger) };
}
