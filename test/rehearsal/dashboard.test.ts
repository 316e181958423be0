// The dashboard's Migration page shows the rehearsal: per check, events seen, agreeing and diverging, and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startInstance, getJson, adminBasic, eventually, ADMIN_PASSWORD } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { tcpExchange } from '../helpers/net.js';
import { browserSkipReason, launchBrowser, ARTIFACTS } from '../helpers/browser.js';

test('the Migration page lists each rehearsed check and the first divergences with why', { skip: browserSkipReason() }, async (t) => {
  const root = makeTree({
    'conf.d/config.json': {
      client: { name: 'dash-rehearsed', address: '127.0.0.1', subscriptions: ['web'] },
      handlers: { sink: { type: 'pipe', command: 'cat > /dev/null' }, mutated: { type: 'pipe', command: 'cat > /dev/null', mutator: 'missing' } },
      checks: {
        agreeing: { command: 'true', interval: 60, subscribers: ['nobody'], handlers: ['sink'] },
        diverging: { command: 'true', interval: 60, subscribers: ['nobody'], handlers: ['mutated'] },
      },
    },
  });
  const instance = await startInstance(root, [], { TZ: 'UTC' });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  await tcpExchange(instance.socket, JSON.stringify({ name: 'agreeing', output: 'bad', status: 2 }));
  await tcpExchange(instance.socket, JSON.stringify({ name: 'diverging', output: 'bad', status: 2 }));
  const authorization = `Bearer ${(await getJson(`${instance.v2}/auth`, { headers: adminBasic })).body.access_token}`;
  const seen = await eventually(
    async () => (await getJson(`${instance.v2}/api/checkbridge/v1/rehearsal`, { headers: { authorization } })).body.seen,
    (n) => n === 2,
  );
  assert.equal(seen, 2);

  const browser = await launchBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(`${instance.v2}/`);
  await page.getByLabel('User name').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
  await page.goto(`${instance.v2}/#/migration`);
  await page.getByTestId('rehearsal-summary').waitFor();
  assert.equal(await page.getByTestId('rehearsal-summary').innerText(), '2 events seen: 1 agreeing, 1 diverging.');
  assert.deepEqual(await page.locator('tr[data-rehearsed="agreeing"] td').allInnerTexts(), ['agreeing', '1', '1', '0']);
  assert.deepEqual(await page.locator('tr[data-rehearsed="diverging"] td').allInnerTexts(), ['diverging', '1', '0', '1']);
  const divergences = await page.locator('[data-divergences="diverging"]').innerText();
  assert.match(divergences, /handler mutated: legacy fails: mutator missing is not defined \(unknown mutator\); Sensu Go handled \(event as JSON\)/);
  assert.match(divergences, /why: handlers\/mutated\/mutator: mutator missing is not defined/);
  assert.equal(await page.locator('[data-divergences="agreeing"]').count(), 0);
  await page.screenshot({ path: join(ARTIFACTS, 'migration-rehearsal.png'), fullPage: true });
});
