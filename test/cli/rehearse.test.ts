import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRehearsal } from '../../src/rehearsal/index.js';
import type { RehearsalReport } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { ADMIN_PASSWORD, adminBasic, getJson, startInstance, type Instance } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { eventually } from '../helpers/wait.js';
import { makeTree, removeTree } from '../helpers/tree.js';

// A handler whose mutator nothing defines: legacy skips the handler, Sensu Go runs it unmutated, so its event diverges.
const CONFIG = {
  client: { name: 'target', address: '127.0.0.1', subscriptions: [] },
  handlers: { h: { type: 'pipe', command: 'cat > /dev/null', mutator: 'missing' } },
  checks: { c: { command: 'true', interval: 60, subscribers: ['web'], handlers: ['h'] } },
};

let root: string;
let instance: Instance;
before(async () => {
  root = makeTree({ 'conf.d/config.json': CONFIG });
  instance = await startInstance(root);
});
after(async () => {
  await instance.daemon.stop('SIGKILL');
  removeTree(root);
});

const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };

async function apiReport(): Promise<RehearsalReport> {
  const authorization = `Bearer ${(await getJson(`${instance.v2}/auth`, { headers: adminBasic })).body.access_token}`;
  return (await getJson(`${instance.v2}/api/checkbridge/v1/rehearsal`, { headers: { authorization } })).body as RehearsalReport;
}

test('another format is a usage error, before the API is asked', () => {
  const result = runCli(['rehearse', '--format', 'html', '--url', 'http://127.0.0.1:1'], asAdmin);
  assert.equal(result.code, 64);
  assert.equal(result.stderr, 'checkbridge: invalid usage: --format must be markdown or json\n');
});

test("the API's refusal is the command's error", () => {
  const result = runCli(['rehearse', '--url', instance.v2], { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: 'wrong', CHECKBRIDGE_API_KEY: '' } });
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /^checkbridge: /);
  assert.equal(result.stdout, '');
});

test('nothing rehearsed yet: the report says so, exit 0', () => {
  const result = runCli(['rehearse', '--url', instance.v2], asAdmin);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /No legacy event has been rehearsed yet/);
});

test("the daemon's report as Markdown or JSON, exit 1 once an event diverged", async () => {
  assert.equal(await tcpExchange(instance.socket, JSON.stringify({ name: 'c', status: 2, output: 'down' })), 'ok');
  const report = await eventually(apiReport, (body) => (body.checks ?? []).some((c) => c.seen > 0), 30_000);
  const markdown = runCli(['rehearse', '--url', instance.v2], asAdmin);
  assert.equal(markdown.code, 1, markdown.stderr);
  assert.equal(markdown.stdout, formatRehearsal(report, 'markdown'));
  assert.match(markdown.stdout, /1 events on 1 checks, 0 agreeing, 1 diverging/);
  const json = runCli(['rehearse', '--format', 'json', '--url', instance.v2], asAdmin);
  assert.equal(json.code, 1);
  assert.equal(json.stdout, formatRehearsal(report, 'json'));
});
