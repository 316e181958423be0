import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson, postJson, eventually } from '../helpers/instance.js';
import { PROTOTYPE_NAMES, BAD_STATUSES, MAX_STATUS, LONGEST_NAME, TOO_LONG_NAME, nested, resultText } from '../helpers/hostile-inputs.js';

const config = { 'conf.d/a.json': { client: { name: 'adv', address: '127.0.0.1', subscriptions: [] } } };
const adhoc = (name: string, status: string, extra = '') => `{"check":{"metadata":{"name":"${name}"},"output":"hostile","status":${status}${extra}}}`;

test('agent HTTP: prototype-member names in one array are stored like any other; 202 for the whole batch', async (t) => {
  const { agent, api } = await instanceFor(t, config);
  const batch = [{ name: 'good', output: 'fine', status: 0 }, ...PROTOTYPE_NAMES.map((name) => ({ name, output: `named ${name}`, status: 1 }))];
  assert.deepEqual((await postJson(`${agent}/results`, batch)).body, { response: 'ok' });
  for (const result of batch) assert.equal((await getJson(`${api}/results/adv/${result.name}`)).body?.check.output, result.output, result.name);
});

test('agent HTTP: /results and /events refuse a status that is not an integer from -2^31 to 2^32-1 with 400 naming status', async (t) => {
  const { agent, api } = await instanceFor(t, config);
  for (const status of BAD_STATUSES) {
    for (const [path, body] of [
      ['/results', resultText('bad_status', status)],
      ['/events', adhoc('bad_status', status)],
    ] as const) {
      const reply = await postJson(`${agent}${path}`, body);
      assert.equal(reply.status, 400, `${path} status ${status}`);
      assert.match(reply.body.response, /^check status must be an integer/, `${path} status ${status}`);
    }
  }
  assert.equal((await getJson(`${api}/results/adv/bad_status`)).status, 404, 'nothing stored');
  assert.equal((await postJson(`${agent}/results`, resultText('max_status', String(MAX_STATUS)))).status, 202);
  assert.equal((await getJson(`${api}/results/adv/max_status`)).body.check.status, MAX_STATUS);
});

test('agent HTTP: names longer than 255 characters are refused with 400 and the reason; 255 is accepted', async (t) => {
  const { agent, api } = await instanceFor(t, config);
  const expected = { response: 'check name must be at most 255 characters' };
  assert.deepEqual((await postJson(`${agent}/results`, resultText(TOO_LONG_NAME, '1'))).body, expected);
  assert.deepEqual((await postJson(`${agent}/events`, adhoc(TOO_LONG_NAME, '1'))).body, expected);
  assert.deepEqual((await postJson(`${agent}/results`, { name: 'short', source: TOO_LONG_NAME, output: 'x', status: 1 })).body, {
    response: 'check source must be at most 255 characters',
  });
  assert.equal((await postJson(`${agent}/events`, adhoc(LONGEST_NAME, '1'))).status, 202);
  assert.equal((await getJson(`${api}/events/adv/${LONGEST_NAME}`)).status, 200);
});

test('agent HTTP: 10,000 levels of nesting are a 400 naming the depth at both doors, and the API keeps answering', async (t) => {
  const { daemon, agent, api } = await instanceFor(t, config);
  const expected = { response: 'JSON nested deeper than 100 levels' };
  const deep = `,"custom":${nested(10_000)}`;
  for (const [path, body] of [
    ['/results', resultText('deep', '1', deep)],
    ['/results', `[${resultText('deep', '1', deep)}]`],
    ['/events', adhoc('deep', '1', deep)],
  ] as const) {
    const reply = await postJson(`${agent}${path}`, body);
    assert.deepEqual([reply.status, reply.body], [400, expected], path);
  }
  assert.equal((await postJson(`${agent}/results`, resultText('after', '0'))).status, 202);
  assert.equal(
    (
      await eventually(
        () => getJson(`${api}/results/adv/after`),
        (r) => r.status === 200,
      )
    ).status,
    200,
  );
  assert.equal((await getJson(`${agent}/info`)).status, 200);
  assert.equal(daemon.proc.exitCode, null);
});
