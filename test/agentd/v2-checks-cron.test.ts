// On the real Sensu Go 6.12 agent: a v2 check's cron is read as Sensu Go reads it (robfig/cron's
// ParseStandard): `@every`, CRON_TZ zones, five fields only; the agent runs it at the cron's times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../api/v2/v2-helpers.js';
import { eventually } from '../helpers/instance.js';
import { agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { v2CheckInstance, eventWhere, issuedSeries, gaps, type Json, refusals } from './v2-checks-helpers.js';

const skip = agentSkipReason();
const cronCheck = (name: string, cron: string) => ({
  metadata: { name },
  command: `echo ${name}`,
  cron,
  publish: true,
  subscriptions: ['linux'],
  handlers: [],
});
const inZone = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(ms);

test(
  'a cron is read as Sensu Go reads it: @every runs at its period, CRON_TZ sets the zone, every minute on the minute, six fields refused',
  { skip, timeout: 150_000 },
  async (t) => {
    const { v2, agentd, auth, ns, event, put } = await v2CheckInstance(t);
    // Sensu Go refuses what robfig's standard parser refuses: the API says so instead of storing a check that never runs.
    const refused = await call(`${ns}/checks/six-fields`, 'PUT', auth, cronCheck('six-fields', '0 0 * * * *'));
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(JSON.stringify(refused.body), /check cron string is invalid: expected exactly 5 fields, found 6/);
    const badZone = await call(`${ns}/checks/bad-zone`, 'PUT', auth, cronCheck('bad-zone', 'CRON_TZ=Mars/Olympus 0 9 * * *'));
    assert.equal(badZone.status, 400, JSON.stringify(badZone.body));
    assert.match(JSON.stringify(badZone.body), /provided bad location Mars\/Olympus/);

    await put('checks', cronCheck('every-2s', '@every 2s'));
    await put('checks', cronCheck('kathmandu-9am', 'CRON_TZ=Asia/Kathmandu 0 9 * * *'));
    await put('checks', cronCheck('each-minute', 'CRON_TZ=Asia/Kathmandu * * * * *'));
    const agent = await startAgent(t, agentd, 'clockwork', [...agentFlags(), '--subscriptions', 'linux']);
    await agent.waitFor((l) => l.msg === 'successfully received the initial entity config');

    // The scheduler's next execution (the dashboard's Checks page): 09:00 in Kathmandu, which is 03:15 UTC.
    // Creations are picked up by the scheduler's sync within a second: polled, not read at once.
    const listed = await eventually(
      () => call(`${v2}/api/checkbridge/v1/namespaces/default/checks`, 'GET', auth),
      (r) => r.status === 200 && typeof (r.body as Json[]).find((c) => c.name === 'kathmandu-9am')?.next_execution === 'number',
    );
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const next = (listed.body as Json[]).find((c) => c.name === 'kathmandu-9am')?.next_execution;
    assert.equal(typeof next, 'number', JSON.stringify(listed.body));
    assert.equal(inZone(next, 'Asia/Kathmandu'), '09:00:00');
    assert.equal(inZone(next, 'UTC'), '03:15:00');
    assert.ok(next > Date.now() && next <= Date.now() + 86_400_000, 'within the next day');

    const [every, minute] = await Promise.all([
      issuedSeries(event, 'clockwork', 'every-2s', (s) => s.length >= 4),
      eventWhere(event, 'clockwork', 'each-minute', () => true, 75_000),
    ]);
    assert.ok(every.length >= 4 && gaps(every).every((g) => g % 2 === 0) && gaps(every).includes(2), `@every 2s: ${JSON.stringify(every)}`);
    assert.equal(minute.check.issued % 60, 0, `issued on the minute: ${minute.check.issued}`);
    assert.equal(minute.check.output.trim(), 'each-minute');
    assert.deepEqual(refusals(agent), [], 'no request refused by the agent');
  },
);
