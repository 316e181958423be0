import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED } from './paths.js';

export const SENSUCTL = join(SHARED, 'interop', 'sensuctl');

/** Why the real sensuctl cannot run here (false when it can); in CI a missing binary fails instead of skipping. */
export function sensuctlSkipReason(): string | false {
  const reason = existsSync(SENSUCTL) ? false : `the real sensuctl is absent (${SENSUCTL}); it exists beside the project only in CI and development`;
  if (reason && process.env.CI === 'true') throw new Error(`${reason}: required in CI`);
  return reason;
}

export type Run = SpawnSyncReturns<string>;
export type Sensuctl = ((...args: string[]) => Run) & { readonly home: string };

/** The real sensuctl with a private HOME (its configuration and cache), removed when the test ends. */
export function sensuctlFor(t: { after(fn: () => Promise<void>): void }): Sensuctl {
  const home = mkdtempSync(join(tmpdir(), 'checkbridge-sensuctl-'));
  t.after(async () => rmSync(home, { recursive: true, force: true }));
  const run = (...args: string[]) => spawnSync(SENSUCTL, args, { env: { HOME: home, PATH: process.env.PATH }, encoding: 'utf8', timeout: 60_000 });
  return Object.assign(run, { home });
}

/** Output and errors of one run, for messages and matching (colours removed). */
export const outputOf = (run: Run) => `${run.stdout ?? ''}${run.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '');

/** Runs and asserts success, returning stdout. */
export function ok(sensuctl: Sensuctl, ...args: string[]): string {
  const run = sensuctl(...args);
  if (run.status !== 0) throw new Error(`sensuctl ${args.join(' ')} exited ${String(run.status)}: ${outputOf(run)}`);
  return run.stdout;
}
