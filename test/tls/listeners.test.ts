import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTree, removeTree } from '../helpers/tree.js';
import { startInstance, adminBasic, type Instance } from '../helpers/instance.js';
import { runCli } from '../helpers/cli.js';
import { makeTestCa, type TestCa } from '../helpers/tls.js';
import { httpsGet } from '../helpers/https-request.js';

let ca: TestCa;
let server: ReturnType<TestCa['issue']>;
let client: ReturnType<TestCa['issue']>;

before(() => {
  ca = makeTestCa();
  server = ca.issue(['127.0.0.1', 'localhost']);
  client = ca.issue(['checkbridge-test-client'], { client: true });
});
after(() => ca.remove());

const CLIENT = { client: { name: 'tls-host', address: '127.0.0.1', subscriptions: [] } };
// One GET on each HTTP listener: the legacy API, the v2 API (its anonymous health route), the agent API.
const paths = (i: Instance) => [`${i.api}/info`, `${i.v2}/health`, `${i.agent}/info`].map((u) => u.replace('http://', 'https://'));

async function started(
  t: { after(fn: () => Promise<void>): void },
  files: Record<string, object>,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<Instance> {
  const root = makeTree(files);
  const instance = await startInstance(root, extra, env);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  return instance;
}

test('TLS: every HTTP listener serves HTTPS from its tls settings block; plain HTTP gets no answer', async (t) => {
  const tls = { cert_file: server.certFile, key_file: server.keyFile };
  const instance = await started(t, {
    'conf.d/config.json': { ...CLIENT, client: { ...CLIENT.client, http_socket: { tls } }, api: { tls }, checkbridge: { v2_api: { tls } } },
  });
  for (const msg of ['legacy API listening', 'v2 API listening', 'agent API listening'])
    assert.equal((await instance.daemon.waitFor((l) => l.msg === msg)).tls, true, msg);
  for (const url of paths(instance)) {
    const answer = await httpsGet(url, { ca: ca.caPem }, adminBasic);
    assert.equal(answer.status, 200, `${url}: ${answer.error}`);
    // Not trusted without the CA: the certificate really is the one configured.
    assert.match(String((await httpsGet(url, {})).error), /self.signed|unable to (get|verify)/i, url);
    await assert.rejects(fetch(url.replace('https://', 'http://')), url);
  }
});

test('mutual TLS from environment and flags: a client without a certificate is refused on every listener, one with a certificate of the CA is served', async (t) => {
  const instance = await started(t, { 'conf.d/client.json': CLIENT }, ['--tls-ca-file', ca.caFile], {
    CHECKBRIDGE_TLS_CERT_FILE: server.certFile,
    CHECKBRIDGE_TLS_KEY_FILE: server.keyFile,
  });
  const stranger = makeTestCa('another CA');
  t.after(() => stranger.remove());
  const foreign = stranger.issue(['intruder'], { client: true });
  for (const url of paths(instance)) {
    const withCertificate = await httpsGet(url, { ca: ca.caPem, cert: client.cert, key: client.key }, adminBasic);
    assert.equal(withCertificate.status, 200, `${url}: ${withCertificate.error}`);
    const without = await httpsGet(url, { ca: ca.caPem }, adminBasic);
    assert.equal(without.status, undefined, `${url} answered a client without a certificate`);
    assert.match(String(without.error), /certificate required|ECONNRESET|socket hang up|alert/i, url);
    const wrong = await httpsGet(url, { ca: ca.caPem, cert: foreign.cert, key: foreign.key }, adminBasic);
    assert.equal(wrong.status, undefined, `${url} answered a client certificate of another CA`);
  }
});

test('TLS settings that cannot work refuse the start, naming the problem', async () => {
  const root = makeTree({ 'conf.d/config.json': { ...CLIENT, api: { tls: { cert_file: server.certFile } } } });
  try {
    const halfDone = runCli([
      'run',
      join(root, 'conf.d'),
      '--state-dir',
      join(root, 'state'),
      '--api-port',
      '0',
      '--socket-port',
      '0',
      '--agent-port',
      '0',
      '--v2-port',
      '0',
      '--agentd-port',
      '0',
    ]);
    assert.notEqual(halfDone.code, 0);
    assert.match(halfDone.stderr, /legacy API TLS needs both a certificate and its key/);
    const missing = runCli([
      'run',
      join(root, 'conf.d'),
      '--state-dir',
      join(root, 'state'),
      '--tls-cert-file',
      join(root, 'nope.pem'),
      '--tls-key-file',
      server.keyFile,
      '--api-port',
      '0',
      '--socket-port',
      '0',
      '--agent-port',
      '0',
      '--v2-port',
      '0',
      '--agentd-port',
      '0',
    ]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /TLS cert_file .*nope\.pem: ENOENT/);
  } finally {
    removeTree(root);
  }
});

test('a listener bound beyond loopback without TLS warns that it serves insecure requests; loopback and TLS listeners do not', async (t) => {
  const everywhere = ['--api-bind', '0.0.0.0', '--v2-bind', '0.0.0.0', '--agent-bind', '0.0.0.0', '--socket-bind', '0.0.0.0'];
  const open = await started(t, { 'conf.d/client.json': CLIENT }, everywhere);
  await open.daemon.waitFor((l) => l.msg === 'checkbridge running');
  const warned = (i: Instance) =>
    i.daemon.logs
      .filter((l) => l.level === 40 && /serves insecure requests/.test(String(l.msg)))
      .map((l) => l.listener)
      .sort();
  assert.deepEqual(warned(open), ['agent API', 'client socket', 'legacy API', 'v2 API']);

  const loopback = await started(t, { 'conf.d/client.json': CLIENT });
  await loopback.daemon.waitFor((l) => l.msg === 'checkbridge running');
  assert.deepEqual(warned(loopback), []);

  const secured = await started(t, { 'conf.d/client.json': CLIENT }, [...everywhere, '--tls-cert-file', server.certFile, '--tls-key-file', server.keyFile]);
  await secured.daemon.waitFor((l) => l.msg === 'checkbridge running');
  assert.deepEqual(warned(secured), ['client socket'], 'only the plain client socket');
});
