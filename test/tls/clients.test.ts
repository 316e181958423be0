import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeTree, removeTree } from '../helpers/tree.js';
import { startInstance, getJson, postJson, adminBasic, eventually, type Instance } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';
import { makeTestCa, type TestCa } from '../helpers/tls.js';
import { httpsGet } from '../helpers/https-request.js';
import { startAssetServer } from '../servers/asset-server.js';
import { tarGz, sha512 } from '../helpers/archives.js';

// Go's words, which users of Sensu Go search for.
const LEGACY_CN = /x509: certificate relies on legacy Common Name field, use SANs instead/;

let ca: TestCa;
let stranger: TestCa;
before(() => {
  ca = makeTestCa();
  stranger = makeTestCa('a CA nobody trusts here');
});
after(() => {
  ca.remove();
  stranger.remove();
});

async function started(t: { after(fn: () => Promise<void>): void }, name: string, files: Record<string, object> = {}, extra: string[] = []): Promise<Instance> {
  const root = makeTree({ 'conf.d/client.json': { client: { name, address: '127.0.0.1', subscriptions: [] } }, ...files });
  const instance = await startInstance(root, extra);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  return instance;
}

/** An API key on a backend served over TLS, made through its v2 API with `tls` as the client's credentials. */
async function apiKeyOver(v2: string, tls: { ca: string; cert?: string; key?: string }): Promise<string> {
  const token = JSON.parse((await httpsGet(`${v2}/auth`, tls, adminBasic)).body!).access_token as string;
  const created = await httpsGet(
    `${v2}/api/core/v2/apikeys`,
    tls,
    { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    'POST',
    JSON.stringify({ username: 'admin' }),
  );
  assert.equal(created.status, 201, created.body ?? created.error);
  return String(created.headers!.location).split('/').pop()!;
}

const https = (url: string) => url.replace('http://', 'https://');
const bridgeWaiting = (i: Instance) =>
  eventually(
    async () => (await getJson(`${i.api}/bridge`)).body,
    (b) => b.depth >= 1 && b.status !== 'delivering' && b.status !== 'starting',
  );

test('bridge over mutual TLS: events reach a second checkbridge serving HTTPS; a wrong CA is refused, retried and logged, never dead-lettered', async (t) => {
  const server = ca.issue(['127.0.0.1', 'localhost']);
  const client = ca.issue(['bridge-sender'], { client: true });
  const backend = await started(t, 'tls-backend', {}, ['--tls-cert-file', server.certFile, '--tls-key-file', server.keyFile, '--tls-ca-file', ca.caFile]);
  const v2 = https(backend.v2);
  const credentials = { ca: ca.caPem, cert: client.cert, key: client.key };
  const key = await apiKeyOver(v2, credentials);

  const sender = await started(t, 'tls-sender', {
    'conf.d/bridge.json': { bridge: { url: v2, api_key: key, tls: { ca_cert: ca.caFile, client_cert: client.certFile, client_key: client.keyFile } } },
  });
  for (const status of [0, 2, 1])
    assert.equal(await tcpExchange(sender.socket, JSON.stringify({ name: 'over_tls', output: `status ${status}`, status })), 'ok');
  const history = await eventually(
    async () => {
      const answer = await httpsGet(`${v2}/api/core/v2/namespaces/default/events/tls-sender/over_tls`, credentials, { authorization: `Key ${key}` });
      return answer.status === 200 ? (JSON.parse(answer.body!).check.history as { status: number }[]).map((h) => h.status) : [];
    },
    (h) => h.length === 3,
    20_000,
  );
  assert.deepEqual(history, [0, 2, 1]);
  assert.equal((await getJson(`${sender.api}/bridge`)).body.status, 'delivering');

  // The same backend, trusted through the wrong CA.
  const misled = await started(t, 'tls-misled', {
    'conf.d/bridge.json': { bridge: { url: v2, api_key: key, tls: { ca_cert: stranger.caFile, client_cert: client.certFile, client_key: client.keyFile } } },
  });
  assert.equal(await tcpExchange(misled.socket, JSON.stringify({ name: 'never_there', output: 'x', status: 1 })), 'ok');
  const line = await misled.daemon.waitFor((l) => l.msg === 'bridge cannot deliver: retrying with backoff');
  assert.match(String(line.reason), /SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/);
  await new Promise((r) => setTimeout(r, 1500));
  const waiting = (await getJson(`${misled.api}/bridge`)).body;
  assert.deepEqual([waiting.depth, waiting.dead_lettered], [1, 0]);
});

test('a backend certificate naming its host only in the common name is refused with the legacy-common-name error (bridge), and retried', async (t) => {
  const cnOnly = ca.issue(['localhost'], { commonNameOnly: true });
  const backend = await started(t, 'cn-backend', {}, ['--tls-cert-file', cnOnly.certFile, '--tls-key-file', cnOnly.keyFile]);
  const v2 = https(backend.v2).replace('127.0.0.1', 'localhost');
  const sender = await started(t, 'cn-sender', {
    'conf.d/bridge.json': { bridge: { url: v2, api_key: '00000000-0000-4000-8000-000000000000', tls: { ca_cert: ca.caFile } } },
  });
  assert.equal(await tcpExchange(sender.socket, JSON.stringify({ name: 'cn_check', output: 'x', status: 1 })), 'ok');
  const line = await sender.daemon.waitFor((l) => l.msg === 'bridge cannot deliver: retrying with backoff');
  assert.match(String(line.reason), LEGACY_CN);
  assert.match(String(line.reason), /localhost/);
  const waiting = await bridgeWaiting(sender);
  assert.match(String(waiting.status), LEGACY_CN);
  assert.equal(waiting.dead_lettered, 0);
});

test('an asset server whose certificate names its host only in the common name is refused with the legacy-common-name error', async (t) => {
  const archive = await tarGz({ 'bin/cn-asset': '#!/bin/sh\necho never\n' });
  const server = await startAssetServer(ca, 'TLSv1.2', ca.issue(['localhost'], { commonNameOnly: true }));
  t.after(() => server.close());
  server.serve('/cn.tar.gz', { body: archive });
  const instance = await started(t, 'cn-assets', {
    'conf.d/assets.json': {
      client: { name: 'cn-assets', address: '127.0.0.1', subscriptions: ['assets'] },
      checkbridge: { assets: { trusted_ca_file: ca.caFile } },
      assets: { cn_only: { url: server.url('/cn.tar.gz').replace('127.0.0.1', 'localhost'), sha512: sha512(archive) } },
      checks: { cn_asset: { command: 'cn-asset', runtime_assets: ['cn_only'], subscribers: ['assets'], publish: false, handle: false } },
    },
  });
  assert.equal((await postJson(`${instance.api}/request`, { check: 'cn_asset', subscribers: ['assets'] })).status, 202);
  const result = await eventually(
    () => getJson(`${instance.api}/results/cn-assets/cn_asset`),
    (r) => r.status === 200,
    15_000,
  );
  assert.equal(result.body.check.status, 3);
  assert.match(result.body.check.output, /^error getting asset cn_only: /);
  assert.match(result.body.check.output, LEGACY_CN);
  assert.equal(server.hits('/cn.tar.gz'), 0, 'no request reached it');
});
