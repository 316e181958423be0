import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, postJson, eventually } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { capturedLogger } from '../helpers/log-capture.js';

// Every secret carries this marker, so one substring test per body finds any of them.
const SECRETS = {
  checkPassword: 'chk-pw-S3CRET',
  checkApiKey: 'chk-apikey-S3CRET',
  nestedSecret: 'nested-S3CRET',
  clientPassword: 'client-pw-S3CRET',
  clientToken: 'client-token-S3CRET',
  socketPassword: 'socket-pw-S3CRET',
  resultPassword: 'result-pw-S3CRET',
  labelPassword: 'label-pw-S3CRET',
  annotationKey: 'annotation-key-S3CRET',
  checkLabel: 'check-label-S3CRET',
};
const MARKER = 'S3CRET';
const basic = { authorization: 'Basic ' + Buffer.from(`agent-user:${SECRETS.socketPassword}`).toString('base64') };

const client = {
  name: 'vault-host',
  address: '127.0.0.1',
  subscriptions: ['linux'],
  password: SECRETS.clientPassword,
  Api_Token: SECRETS.clientToken,
  rack: 'visible-rack',
  http_socket: { user: 'agent-user', password: SECRETS.socketPassword },
};
const check = {
  command: 'echo db-down; exit 2',
  interval: 3600,
  subscribers: ['linux'],
  handlers: [],
  notes: 'visible-check-note',
  password: SECRETS.checkPassword,
  API_KEY: SECRETS.checkApiKey,
  db: { host: 'db.example', Secret: SECRETS.nestedSecret },
};

test('redaction: no API body and no log line shows a secret key value; other fields, tokens and ?redacted=false stay', async (t) => {
  const { api, agent, v2, daemon } = await instanceFor(t, { 'conf.d/client.json': { client }, 'conf.d/checks.json': { checks: { 'db-check': check } } });

  // The check runs on the client (definition attributes travel with its result); results are pushed to both doors too.
  assert.equal((await postJson(`${api}/request`, { check: 'db-check' })).status, 202);
  const event = await eventually(
    () => getJson(`${api}/events/vault-host/db-check`),
    (r) => r.status === 200,
    15_000,
  );
  assert.equal(event.status, 200, 'the requested check ran');
  assert.equal((await postJson(`${agent}/results`, { name: 'pushed', output: 'pushed-output', status: 1, password: SECRETS.resultPassword })).status, 202);
  assert.equal(
    (await postJson(`${api}/results`, { name: 'api-pushed', source: 'vault-host', output: 'api-output', status: 2, Password: SECRETS.resultPassword })).status,
    202,
  );
  await eventually(
    () => getJson(`${api}/events/vault-host/pushed`),
    (r) => r.status === 200,
  );

  // A client whose own `redact` list adds to the defaults (the strictest policy).
  assert.equal(
    (
      await postJson(`${api}/clients`, {
        name: 'own-list',
        address: '10.0.0.7',
        subscriptions: [],
        redact: ['favourite'],
        favourite: `fav-${MARKER}`,
        password: `own-list-password-${MARKER}`,
        rack: 'own-list-rack-shown',
      })
    ).status,
    201,
  );

  const auth = `Bearer ${await adminToken(v2)}`;
  assert.doesNotMatch(auth, /REDACTED/, 'the token routes send their bodies exactly');
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const entity = {
    entity_class: 'proxy',
    metadata: { name: 'labelled', labels: { password: SECRETS.labelPassword, region: 'visible-region' }, annotations: { API_KEY: SECRETS.annotationKey } },
  };
  assert.equal((await call(`${ns}/entities/labelled`, 'PUT', auth, entity)).status, 200);
  const v2Check = {
    metadata: { name: 'probe', labels: { Secret: SECRETS.checkLabel, tier: 'visible-tier' } },
    interval: 60,
    status: 1,
    output: 'probe-output',
  };
  assert.equal((await call(`${ns}/events/labelled/probe`, 'PUT', auth, { entity, check: v2Check })).status, 201);
  assert.equal(
    (
      await call(`${ns}/checks/probe`, 'PUT', auth, {
        command: 'true',
        interval: 60,
        publish: false,
        metadata: { name: 'probe', labels: { Secret: SECRETS.checkLabel } },
        password: SECRETS.checkPassword,
      })
    ).status,
    201,
  );

  const reads: [string, RequestInit | undefined, string[]][] = [
    [`${api}/settings`, undefined, ['visible-check-note', 'visible-rack']],
    [`${api}/clients`, undefined, ['visible-rack', 'own-list-rack-shown']],
    [`${api}/clients/vault-host`, undefined, ['visible-rack']],
    [`${api}/clients/own-list`, undefined, ['own-list-rack-shown']],
    [`${api}/clients/vault-host/history`, undefined, ['visible-check-note', 'db.example']],
    [`${api}/checks`, undefined, ['visible-check-note', 'db.example']],
    [`${api}/checks/db-check`, undefined, ['visible-check-note', 'db.example']],
    [`${api}/events`, undefined, ['visible-check-note', 'db.example', 'pushed-output', 'api-output']],
    [`${api}/incidents`, undefined, ['visible-check-note']],
    [`${api}/events/vault-host`, undefined, ['visible-check-note', 'pushed-output']],
    [`${api}/events/vault-host/db-check`, undefined, ['visible-check-note', 'db.example']],
    [`${api}/events/vault-host/api-pushed`, undefined, ['api-output']],
    [`${api}/results`, undefined, ['visible-check-note', 'pushed-output', 'api-output']],
    [`${api}/results/vault-host`, undefined, ['visible-check-note']],
    [`${api}/results/vault-host/db-check`, undefined, ['db.example']],
    [`${api}/results/vault-host/pushed`, undefined, ['pushed-output']],
    [`${agent}/info`, undefined, []],
    [`${agent}/settings`, { headers: basic }, ['visible-rack', 'visible-check-note']],
    [`${v2}/api/core/v2/events`, { headers: { authorization: auth } }, ['visible-region', 'visible-tier']],
    [`${ns}/events`, { headers: { authorization: auth } }, ['visible-region', 'visible-tier']],
    [`${ns}/events/labelled`, { headers: { authorization: auth } }, ['visible-region']],
    [`${ns}/events/labelled/probe`, { headers: { authorization: auth } }, ['visible-region', 'probe-output']],
    [`${ns}/entities`, { headers: { authorization: auth } }, ['visible-region']],
    [`${ns}/entities/labelled`, { headers: { authorization: auth } }, ['visible-region']],
    [`${ns}/checks`, { headers: { authorization: auth } }, ['probe']],
    [`${ns}/checks/probe`, { headers: { authorization: auth } }, ['probe']],
  ];
  for (const [url, init, visible] of reads) {
    const reply = await getJson(url, init);
    assert.equal(reply.status, 200, url);
    const text = JSON.stringify(reply.body);
    assert.doesNotMatch(text, new RegExp(MARKER), `${url} shows a secret: ${text}`);
    for (const field of visible) assert.ok(text.includes(field), `${url} still shows ${field}`);
  }

  // The values are replaced, the keys kept (case as configured).
  const definition = (await getJson(`${api}/checks/db-check`)).body;
  assert.deepEqual([definition.password, definition.API_KEY, definition.db], ['REDACTED', 'REDACTED', { host: 'db.example', Secret: 'REDACTED' }]);
  const labelled = (await call(`${ns}/entities/labelled`, 'GET', auth)).body;
  assert.deepEqual(labelled.metadata.labels, { password: 'REDACTED', region: 'visible-region' });
  const ownList = (await getJson(`${api}/clients/own-list`)).body;
  assert.deepEqual([ownList.favourite, ownList.password], ['REDACTED', 'REDACTED'], "the client's own list adds to the defaults");

  // Filters and selectors read redacted values: they cannot confirm a guessed secret.
  assert.deepEqual((await getJson(`${api}/checks?filter.password=${SECRETS.checkPassword}`)).body, []);
  assert.equal((await getJson(`${api}/checks?filter.notes=visible-check-note`)).body.length, 1);
  assert.deepEqual((await call(`${ns}/events?labelSelector=${encodeURIComponent(`password == ${SECRETS.labelPassword}`)}`, 'GET', auth)).body, []);
  assert.equal((await call(`${ns}/events?labelSelector=${encodeURIComponent('region == visible-region')}`, 'GET', auth)).body.length, 1);

  // Asked for explicitly, behind credentials, the settings stay whole (legacy behaviour); without api.user and
  // api.password there is nobody to show them to (test/adversarial/legacy-settings.test.ts).
  assert.equal((await getJson(`${api}/settings?redacted=false`)).status, 403);
  assert.equal((await getJson(`${agent}/settings?redacted=false`, { headers: basic })).body.checks['db-check'].db.Secret, SECRETS.nestedSecret);

  // Log lines follow the same policy.
  const leaked = daemon.logs.filter((line) => JSON.stringify(line).includes(MARKER));
  assert.deepEqual(leaked, [], 'no log line shows a secret');
});

test('redaction: log lines follow the API policy at any depth and in any case, and leave the logged object as it was', () => {
  const { logger, lines } = capturedLogger();
  const event = {
    client: { name: 'vault-host', Password: SECRETS.clientPassword },
    check: { name: 'db-check', db: { conn: { Secret: SECRETS.nestedSecret } }, notes: 'visible-check-note' },
  };
  logger.info({ event }, 'event logged');
  const text = JSON.stringify(lines);
  assert.doesNotMatch(text, new RegExp(MARKER), text);
  assert.ok(text.includes('visible-check-note'));
  assert.equal(event.check.db.conn.Secret, SECRETS.nestedSecret, 'only the output is redacted, not the value itself');
});
