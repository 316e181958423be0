// The agent handshake as Sensu Go's agentd answers it: who may connect (credentials, role, namespace, entity limit),
// the identity a session gets, and the bound on new connections a second.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { admitAgent, ConnectionRate, CredentialCache, type Admission } from '../../src/agentd/handshake.js';
import { ensureAgentUser, hashPassword, loginLimiterFor } from '../../src/auth/index.js';
import { ManualClock } from '../../src/schedule/clock.js';
import { sqliteStore } from '../helpers/sqlite-store.js';

const PASSWORD = 'agent-secret';
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

/** A real HTTP server whose every request is answered with admitAgent's verdict on it, as JSON. */
async function handshakeServer(t: TestContext, refusal: () => string | null = () => null) {
  const store = sqliteStore(t);
  const resources = store.resources;
  resources.putResource('Namespace', '', 'default', { name: 'default' });
  await ensureAgentUser(resources, { CHECKBRIDGE_AGENT_PASSWORD: PASSWORD }, () => undefined);
  const credentials = new CredentialCache();
  const logins = loginLimiterFor(resources, new ManualClock(1_000_000));
  const server = createServer((request, response) => {
    void admitAgent(request, { resources, store, entityRefusal: refusal }, credentials, logins).then((admission) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(admission)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const admit = async (headers: Record<string, string>): Promise<Admission> => (await fetch(url, { headers })).json() as Promise<Admission>;
  return { store, resources, admit };
}

const agentHeaders = (name: string, fields: Record<string, string> = {}) => ({
  'Sensu-AgentName': name,
  'Sensu-Namespace': 'default',
  authorization: basic('agent', PASSWORD),
  ...fields,
});

test('the agent user with its password is admitted, with its name, namespace and subscriptions', async (t) => {
  const { admit } = await handshakeServer(t);
  assert.deepEqual(await admit(agentHeaders('web-01', { 'Sensu-Subscriptions': 'linux, ,web ' })), {
    ok: true,
    identity: { name: 'web-01', namespace: 'default', user: 'agent', subscriptions: ['linux', 'web'], tls: false, mtls: false },
  });
});

test('no agent name, bad credentials, no agent role and an unknown namespace are each refused with their status', async (t) => {
  const { resources, admit } = await handshakeServer(t);
  resources.putUser('viewer', { username: 'viewer', groups: [], password_hash: await hashPassword('viewer-pw') });
  const { 'Sensu-AgentName': _name, ...nameless } = agentHeaders('x');
  assert.deepEqual(await admit(nameless), { ok: false, status: 400, message: 'the Sensu-AgentName header is missing' });
  assert.deepEqual(await admit(agentHeaders('web-01', { authorization: basic('agent', 'wrong') })), { ok: false, status: 401, message: 'bad credentials' });
  const { authorization: _authorization, ...anonymous } = agentHeaders('web-01');
  assert.deepEqual(await admit(anonymous), { ok: false, status: 401, message: 'bad credentials' });
  const viewer = await admit(agentHeaders('web-01', { authorization: basic('viewer', 'viewer-pw') }));
  assert.deepEqual([viewer.ok, !viewer.ok && viewer.status], [false, 403]);
  assert.deepEqual(await admit(agentHeaders('web-01', { 'Sensu-Namespace': 'nowhere' })), {
    ok: false,
    status: 404,
    message: 'namespace "nowhere" not found',
  });
});

test('past the entity limit a new agent is refused with 402; one whose entity is stored reconnects', async (t) => {
  const { resources, admit } = await handshakeServer(t, () => 'the entity limit is reached');
  resources.putEntity('default', 'known', { entity_class: 'agent', metadata: { name: 'known', namespace: 'default' } });
  assert.deepEqual(await admit(agentHeaders('newcomer')), { ok: false, status: 402, message: 'the entity limit is reached' });
  const known = await admit(agentHeaders('known'));
  assert.equal(known.ok, true);
});

test("a password change applies at once: the cached credentials are not taken after the user's record changed", async (t) => {
  const { resources, admit } = await handshakeServer(t);
  assert.equal((await admit(agentHeaders('web-01'))).ok, true);
  resources.putUser('agent', { ...resources.getUser('agent')!, password_hash: await hashPassword('changed') });
  assert.deepEqual(await admit(agentHeaders('web-01')), { ok: false, status: 401, message: 'bad credentials' });
  assert.equal((await admit(agentHeaders('web-01', { authorization: basic('agent', 'changed') }))).ok, true);
});

test('new connections a second are bounded per one-second window; 0 means no bound', () => {
  let limit = 2;
  const rate = new ConnectionRate(() => limit);
  assert.deepEqual([rate.admit(1000), rate.admit(1500), rate.admit(1999)], [true, true, false]);
  assert.deepEqual([rate.admit(2000), rate.admit(2001), rate.admit(2002)], [true, true, false]);
  limit = 0;
  assert.deepEqual([rate.admit(2003), rate.admit(2004)], [true, true]);
});
