import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { startInstance } from '../helpers/instance.js';

// Configurations that loaded for years under legacy: a zone name in a time window, crons that never fire as written.
const files = {
  'conf.d/client.json': { client: { name: 'zoned', address: '127.0.0.1', subscriptions: ['all'] } },
  'conf.d/checks.json':
    '{\n  "checks": {\n    "quiet_evenings": {\n      "command": "true",\n      "interval": 60,\n      "subscribers": ["all"],\n' +
    '      "subdue": { "days": { "all": [ { "begin": "17:00 America/Vancouver", "end": "8:00 AM" } ] } }\n    },\n' +
    '    "feb31": { "command": "true", "cron": "0 0 31 2 *", "subscribers": ["all"] },\n' +
    '    "dow8": { "command": "true", "cron": "0 0 * * 8", "subscribers": ["all"] },\n' +
    '    "reversed": { "command": "true", "cron": "0 0 * * 5-1", "subscribers": ["all"] }\n  }\n}\n',
  'conf.d/filters.json': { filters: { office: { attributes: {}, when: { days: { monday: [{ begin: '9:00 AM Europe/Paris', end: '5:00 PM' }] } } } } },
};

test('validate: zone-named windows and never-firing crons are valid (exit 0), each with a located warning saying what it does', (t) => {
  const root = makeTree(files);
  t.after(() => removeTree(root));
  const checks = join(root, 'conf.d', 'checks.json');
  const result = runCli(['validate', join(root, 'conf.d')]);
  assert.equal(result.stdout, 'configuration is valid\n');
  assert.equal(result.code, 0);
  const warnings = result.stderr.split('\n').filter((l) => l.startsWith('warning: '));
  assert.deepEqual(warnings, [
    `warning: ${checks}:7:40 /checks/quiet_evenings/subdue/days/all/0/begin: check subdue time "17:00 America/Vancouver": zone "America/Vancouver" is ignored (as legacy did): the time is read in the process's local time zone`,
    `warning: ${checks}:9:35 /checks/feb31/cron: check cron "0 0 31 2 *" never fires as written: day-of-month 31 never occurs in month 2; checkbridge never runs it (legacy parse-cron ran it on the 1st of the month instead)`,
    `warning: ${checks}:10:34 /checks/dow8/cron: check cron "0 0 * * 8" never fires as written: day-of-week 8 never matches (0-7, 7 is Sunday); checkbridge never runs it (legacy parse-cron ran it on the 1st of the month instead)`,
    `warning: ${checks}:11:38 /checks/reversed/cron: check cron "0 0 * * 5-1" never fires as written: day-of-week range 5-1 is empty (ranges do not wrap around); checkbridge never runs it (legacy parse-cron ran it on the 1st of the month instead)`,
    `warning: ${join(root, 'conf.d', 'filters.json')}:9:15 /filters/office/when/days/monday/0/begin: filter when time "9:00 AM Europe/Paris": zone "Europe/Paris" is ignored (as legacy did): the time is read in the process's local time zone`,
  ]);
  const report = JSON.parse(runCli(['validate', '--json', join(root, 'conf.d')]).stdout);
  assert.equal(report.valid, true);
  assert.deepEqual(
    report.warnings.map((w: { path: string }) => w.path),
    [
      '/checks/quiet_evenings/subdue/days/all/0/begin',
      '/checks/feb31/cron',
      '/checks/dow8/cron',
      '/checks/reversed/cron',
      '/filters/office/when/days/monday/0/begin',
    ],
  );
});

test('the daemon starts on them; only the check that fires is scheduled', async (t) => {
  const root = makeTree(files);
  const { daemon } = await startInstance(root);
  t.after(async () => {
    await daemon.stop('SIGKILL');
    removeTree(root);
  });
  const running = await daemon.waitFor((l) => l.msg === 'checkbridge running');
  assert.deepEqual(running.scheduled, ['quiet_evenings'], 'the never-firing crons are not scheduled');
});
