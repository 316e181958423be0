import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { startInstance, ADMIN_PASSWORD, type Instance } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { tcpExchange } from '../helpers/net.js';
import { browserSkipReason, launchBrowser, ARTIFACTS } from '../helpers/browser.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const client = { name: 'dash-client', address: '127.0.0.1', subscriptions: ['web'] };
const HOUR = 3600_000;
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The dashboard in real headless Chromium against the real daemon (TZ=UTC, so subdue hours are UTC hours). */
test('dashboard: login, live events, silence, resolve, subdue timeline, live diagnostics, migration report', { skip: browserSkipReason() }, async (t) => {
  // A subdue window two to four hours from now, on every day, in the daemon's zone (UTC).
  const start = Math.ceil(Date.now() / HOUR) * HOUR + 2 * HOUR;
  const root = makeTree({
    'conf.d/client.json': { client },
    'conf.d/checks.json': {
      checks: {
        disk: { command: 'true', interval: 600, subscribers: ['nobody'], subdue: { days: { all: [{ begin: hhmm(start), end: hhmm(start + 2 * HOUR) }] } } },
        nightly: { command: 'true', cron: '0 3 * * *', subscribers: ['nobody'] },
      },
    },
  });
  const instance: Instance = await startInstance(root, [], { TZ: 'UTC' });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const browser = await launchBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const row = (check: string) => page.locator(`tr[data-client="dash-client"][data-check="${check}"]`);

  await page.goto(`${instance.v2}/`);
  await page.getByLabel('User name').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
  await page.getByTestId('live').filter({ hasText: 'Live' }).waitFor();

  await t.test('an event sent through the client socket appears without a reload', async () => {
    assert.equal(await row('web-check').count(), 0);
    await tcpExchange(instance.socket, JSON.stringify({ name: 'web-check', output: 'CRITICAL: web is down', status: 2 }));
    await tcpExchange(instance.socket, JSON.stringify({ name: 'db-check', output: 'WARNING: replication lag 40s', status: 1 }));
    await row('web-check').waitFor();
    await row('db-check').waitFor();
    assert.match(await row('web-check').innerText(), /Critical[\s\S]*CRITICAL: web is down/);
    await shot('events');
  });

  await t.test('silencing an event marks it', async () => {
    await page.getByRole('button', { name: 'Silence dash-client/web-check' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason').fill('deploying web');
    await dialog.getByRole('button', { name: 'Silence' }).click();
    await page.locator('tr[data-check="web-check"][data-silenced="true"]').waitFor();
    assert.match(await row('web-check').innerText(), /Silenced/);
    assert.equal(await row('db-check').getAttribute('data-silenced'), 'false');
  });

  await t.test('resolving an event removes it from the list', async () => {
    await page.getByRole('button', { name: 'Resolve dash-client/db-check' }).click();
    await row('db-check').waitFor({ state: 'detached' });
    assert.equal(await row('web-check').count(), 1);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('events-phone');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  await t.test("a check's timeline shows its subdue window at the right hours", async () => {
    await page.goto(`${instance.v2}/#/checks/disk`);
    await page.getByRole('heading', { name: 'disk', level: 2 }).waitFor();
    const bands = page.locator('rect.subdue-band');
    await bands.first().waitFor({ state: 'attached' });
    const spans = await bands.evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-start')!, r.getAttribute('data-end')!]));
    const whole = spans.find(([s]) => Date.parse(s) === start);
    assert.ok(whole, `a band starting at ${new Date(start).toISOString()}: ${JSON.stringify(spans)}`);
    // The window's end is inclusive: the band closes at the first minute after it.
    assert.ok(Math.abs(Date.parse(whole[1]) - (start + 2 * HOUR)) <= 60_000, `ends two hours later: ${whole[1]}`);
    assert.match(await page.locator('figcaption').innerText(), new RegExp(`Subdued: [^.]*${hhmm(start)}–`));
    await shot('checks');
  });

  await t.test('the Checks page lists v2 CheckConfigs with their next execution, and runs one now', async () => {
    const auth = `Bearer ${await adminToken(instance.v2)}`;
    const v2disk = { metadata: { name: 'v2-disk' }, command: 'echo v2-warning; exit 1', interval: 600, publish: true, subscriptions: ['web'] };
    assert.equal((await call(`${instance.v2}/api/core/v2/namespaces/default/checks/v2-disk`, 'PUT', auth, v2disk)).status, 201);
    await page.goto(`${instance.v2}/#/checks`);
    const v2Row = page.getByRole('region', { name: 'v2 CheckConfigs' }).locator('tr[data-check="v2-disk"]');
    await v2Row.waitFor();
    await page.waitForFunction(() => !/—/.test(document.querySelector('tr[data-check="v2-disk"]')?.textContent ?? '—'));
    assert.match(await v2Row.innerText(), /every 600s[\s\S]*web/);
    await v2Row.getByRole('button', { name: 'Run now' }).click();
    await page.getByText('Requested v2-disk.').waitFor();
    await shot('v2-checks');
    // The in-process client ran it: its event is on the Events page.
    await page.goto(`${instance.v2}/#/events`);
    await row('v2-disk').waitFor();
  });

  await t.test('a broken conf.d edit shows as a diagnostic and goes when fixed', async () => {
    await page.goto(`${instance.v2}/#/config`);
    await page.getByTestId('config-state').filter({ hasText: 'valid' }).waitFor();
    const broken = join(root, 'conf.d', 'broken.json');
    writeFileSync(broken, '{\n  "checks": {\n    "bad": {\n      "command": "true",\n      "interval": "soon",\n      "subscribers": ["web"]\n    }\n  }\n}\n');
    const diagnostic = page.locator('tr.diagnostic', { hasText: 'broken.json' });
    await diagnostic.waitFor();
    assert.match(await diagnostic.innerText(), /broken\.json:5[\s\S]*\/checks\/bad\/interval/);
    await shot('config');
    rmSync(broken);
    await diagnostic.waitFor({ state: 'detached' });
    await page.getByTestId('config-state').filter({ hasText: 'The configuration is valid' }).waitFor();
  });

  await t.test('the migration report lists the compiled resources', async () => {
    await page.goto(`${instance.v2}/#/migration`);
    await page.getByTestId('migration-summary').waitFor();
    assert.match(await page.getByTestId('migration-summary').innerText(), /CheckConfig 2/);
    await page.getByRole('cell', { name: 'nightly' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download YAML' }).click()]);
    assert.equal(download.suggestedFilename(), 'checkbridge-resources.yaml');
    await shot('migration');
  });

  await t.test('clients, silences and bridge pages show what the APIs hold', async () => {
    const pages = [
      ['clients', page.locator('tr[data-client="dash-client"]', { hasText: 'web' })],
      ['silences', page.locator('tr[data-silence="client:dash-client:web-check"]', { hasText: 'deploying web' })],
      ['bridge', page.getByText('No bridge is configured')],
    ] as const;
    for (const [hash, shown] of pages) {
      await page.goto(`${instance.v2}/#/${hash}`);
      await shown.waitFor();
      await shot(hash);
    }
  });
});
