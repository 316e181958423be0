// The client's checks as a service: at stop a running check gets until the deadline; past it, the stop goes on and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientChecks } from '../../src/client/client-checks.js';
import { ClientRole } from '../../src/client/client-role.js';
import { InProcessTransport } from '../../src/transport/index.js';
import { systemClock } from '../../src/schedule/clock.js';
import { spawnCommand } from '../../src/execute/spawn.js';
import type { CheckResult } from '../../src/execute/result.js';
import { LoggingIntake } from '../helpers/logging-intake.js';
import { settingsOf } from '../helpers/settings.js';
import { capturedLogger } from '../helpers/log-capture.js';

const WARNING = 'still running at stop: their processes are stopped';

/** A client running one check that takes `seconds`, as the service sees it. */
async function runningCheck(seconds: number) {
  const { logger, messages } = capturedLogger();
  const transport = new InProcessTransport();
  const intake = new LoggingIntake(logger);
  const results: CheckResult[] = [];
  intake.onResult((result) => results.push(result));
  const role = new ClientRole({ clock: systemClock, transport, intake, run: spawnCommand, logger, zone: 'UTC' });
  role.apply(settingsOf({ client: { name: 'web01', address: '10.0.0.1', subscriptions: ['web'] } }));
  transport.publish('web', { name: 'slow', command: `sleep ${seconds}; echo done`, issued: 1 });
  await sleep(100); // the check has started
  return { checks: new ClientChecks(role, logger), results, messages };
}

test('a running check that ends before the deadline: its result is in, and nothing is said', async () => {
  const { checks, results, messages } = await runningCheck(0.3);
  assert.equal(checks.name, 'checks');
  await checks.start();
  await checks.stop(Date.now() + 10_000);
  assert.deepEqual(
    results.map((r) => r.check.output),
    ['done\n'],
  );
  assert.ok(!messages().includes(WARNING));
});

test('a check still running at the deadline: the stop returns then, and says so', async () => {
  const { checks, messages } = await runningCheck(2);
  const started = Date.now();
  await checks.stop(Date.now() + 200);
  assert.ok(Date.now() - started < 1500, `${Date.now() - started} ms`);
  assert.ok(messages().includes(WARNING));
});
