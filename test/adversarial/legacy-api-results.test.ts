import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, postJson, eventually } from '../helpers/instance.js';
import { PROTOTYPE_NAMES, BAD_STATUSES, MAX_STATUS, LONGEST_NAME, TOO_LONG_NAME, nested, resultText } from '../helpers/hostile-inputs.js';

const config = { 'conf.d/a.json': { client: { name: 'adv', address: '127.0.0.1', subscriptions: [] } } };

test('legacy API: concurrent POST /results with prototype-member names and sources are all accepted and readable', async (t) => {
  const { api } = await instanceFor(t, config);
  const results = [
    ...Array.from({ length: 30 }, (_, i) => ({ name: `good-${i}`, output: `fine ${i}`, status: 1 })),
    ...PROTOTYPE_NAMES.map((name) => ({ name, output: `named ${name}`, status: 2 })),
    ...PROTOTYPE_NAMES.map((source) => ({ name: 'proxied', source, output: `from ${source}`, status: 1 })),
  ];
  const statuses = await Promise.all(results.map(async (result) => (await postJson(`${api}/results`, result)).status));
  assert.deepEqual([...new Set(statuses)], [202]);
  for (const result of results) {
    const client = 'source' in result ? result.source : 'checkbridge-api';
    assert.equal((await getJson(`${api}/results/${client}/${result.name}`)).body?.check.output, result.output, `${client}/${result.name}`);
  }
});

test('legacy API: POST /results refuses a status that is not an integer from -2^31 to 2^32-1 with 400 naming status', async (t) => {
  const { api } = await instanceFor(t, config);
  for (const status of BAD_STATUSES) {
    const reply = await postJson(`${api}/results`, resultText('bad_status', status));
    assert.equal(reply.status, 400, `status ${status}`);
    assert.match(String(reply.headers.get('x-checkbridge-error')), /^check status must be an integer/, `status ${status}`);
    assert.equal(reply.body, null, 'legacy 400 bodies are empty');
  }
  assert.equal((await getJson(`${api}/results/checkbridge-api/bad_status`)).status, 404, 'nothing stored');
  assert.equal((await postJson(`${api}/results`, resultText('max_status', String(MAX_STATUS)))).status, 202);
  assert.equal((await getJson(`${api}/results/checkbridge-api/max_status`)).body.check.status, MAX_STATUS);
});

test('legacy API: the longest accepted client and check names round-trip through GET and DELETE; one more character is a 400', async (t) => {
  const { api } = await instanceFor(t, config);
  assert.equal(
    (await postJson(`${api}/results`, resultText(TOO_LONG_NAME, '1'))).headers.get('x-checkbridge-error'),
    'check name must be at most 255 characters',
  );
  assert.equal(
    (await postJson(`${api}/results`, { name: 'short', source: TOO_LONG_NAME, output: 'x', status: 1 })).headers.get('x-checkbridge-error'),
    'check source must be at most 255 characters',
  );

  assert.equal((await postJson(`${api}/results`, { name: LONGEST_NAME, source: LONGEST_NAME, output: 'longest', status: 2 })).status, 202);
  const path = `${LONGEST_NAME}/${LONGEST_NAME}`;
  assert.equal((await getJson(`${api}/results/${path}`)).body?.check.output, 'longest');
  assert.equal((await getJson(`${api}/events/${path}`)).body?.check.output, 'longest');
  assert.equal((await getJson(`${api}/clients/${LONGEST_NAME}`)).status, 200);
  assert.equal((await getJson(`${api}/events/${path}`, { method: 'DELETE' })).status, 202);
  assert.equal(
    (
      await eventually(
        () => getJson(`${api}/events/${path}`),
        (r) => r.status === 404,
      )
    ).status,
    404,
    'resolved by the delete',
  );
  assert.equal((await getJson(`${api}/results/${path}`, { method: 'DELETE' })).status, 204);
  assert.equal((await getJson(`${api}/results/${path}`)).status, 404);
});

test('legacy API: 10,000 levels of nesting are a 400 naming the depth, on /results and any other body; the API keeps answering', async (t) => {
  const { daemon, api } = await instanceFor(t, config);
  const expected = 'JSON nested deeper than 100 levels';
  const deep = nested(10_000);
  for (const [path, body] of [
    ['/results', resultText('deep', '1', `,"custom":${deep}`)],
    ['/stashes', `{"path":"deep","content":{"x":${deep}}}`],
    ['/clients', `{"name":"deep","address":"x","subscriptions":[],"custom":${deep}}`],
  ] as const) {
    const reply = await postJson(`${api}${path}`, body);
    assert.deepEqual([reply.status, reply.body, reply.headers.get('x-checkbridge-error')], [400, null, expected], path);
  }
  assert.equal((await postJson(`${api}/results`, resultText('after', '0'))).status, 202);
  assert.equal(
    (
      await eventually(
        () => getJson(`${api}/results/checkbridge-api/after`),
        (r) => r.status === 200,
      )
    ).status,
    200,
  );
  assert.equal((await getJson(`${api}/health`)).status, 204);
  assert.equal(daemon.proc.exitCode, null);
});
