// What every v2 handler shares: failures in Sensu Go's shape, the caller of a request, the clock in seconds, the event store.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { fail, callerOf, setCaller, nowS, eventStoreOf, type V2ApiDeps } from '../../../src/api/v2/context.js';
import { EmbeddedEventStore } from '../../../src/store/index.js';
import { TokenIssuer, newSigningKey } from '../../../src/auth/tokens.js';
import { spawnCommand } from '../../../src/execute/spawn.js';
import { capturedLogger } from '../../helpers/log-capture.js';
import { sqliteIntake } from '../../helpers/sqlite-intake.js';

function depsOf(t: TestContext, nowMs = 1_700_000_000_999): V2ApiDeps {
  const { store, intake } = sqliteIntake(t);
  return { store, intake, tokens: new TokenIssuer(newSigningKey()), logger: capturedLogger().logger, clock: { now: () => nowMs }, spawn: spawnCommand };
}

test('each failure answers its status, Sensu Go’s numeric code and the message, never sniffed as another type', async () => {
  const app = Fastify();
  const failures = ['internal', 'invalid', 'notFound', 'exists', 'conflict', 'forbidden', 'unauthenticated', 'unlicensed'] as const;
  app.get('/:failure', (request, reply) => fail(reply, (request.params as { failure: (typeof failures)[number] }).failure, 'why'));
  const seen: [string, number, unknown][] = [];
  for (const failure of failures) {
    const reply = await app.inject({ method: 'GET', url: `/${failure}` });
    assert.equal(reply.headers['x-content-type-options'], 'nosniff');
    assert.equal(reply.json().message, 'why');
    seen.push([failure, reply.statusCode, reply.json().code]);
  }
  assert.deepEqual(seen, [
    ['internal', 500, 0],
    ['invalid', 400, 1],
    ['notFound', 404, 2],
    ['exists', 409, 3],
    ['conflict', 409, 3],
    ['forbidden', 403, 4],
    ['unauthenticated', 401, 5],
    ['unlicensed', 402, 6],
  ]);
  await app.close();
});

test('the caller set on a request is read back from that request alone', async () => {
  const app = Fastify();
  app.get('/set', (request) => {
    setCaller(request, { username: 'alice', groups: ['dev'], viaKey: true });
    return callerOf(request);
  });
  app.get('/unset', (request) => ({ caller: callerOf(request) ?? null }));
  assert.deepEqual((await app.inject({ method: 'GET', url: '/set' })).json(), { username: 'alice', groups: ['dev'], viaKey: true });
  assert.deepEqual((await app.inject({ method: 'GET', url: '/unset' })).json(), { caller: null });
  await app.close();
});

test('the clock is read in whole seconds, rounded down', (t) => {
  assert.equal(nowS(depsOf(t, 1_700_000_000_999)), 1_700_000_000);
});

test('the event store is the one given, else one embedded store per state store', (t) => {
  const deps = depsOf(t);
  const embedded = eventStoreOf(deps);
  assert.ok(embedded instanceof EmbeddedEventStore);
  assert.equal(eventStoreOf({ ...deps }), embedded, 'the same state store keeps its one embedded store');
  assert.notEqual(eventStoreOf(depsOf(t)), embedded);
  const given = new EmbeddedEventStore(deps.store.resources);
  assert.equal(eventStoreOf({ ...deps, events: given }), given);
});
