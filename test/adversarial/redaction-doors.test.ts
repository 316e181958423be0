// One redaction policy at every door that serves an entity or an event: v2 entities and events, the agent door's
// JSON and protobuf frames, the dashboard, the legacy API (its clients and its view of agents). Keys are matched
// case-blind and beyond punctuation (`API-KEY` is `api_key`), an own `redact` list adds to the defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { WebSocket } from 'ws';
import { eventually, getJson, postJson } from '../helpers/instance.js';
import { AGENT_PASSWORD, agentInstanceFor } from '../helpers/sensu-agent.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

type Json = Record<string, any>;
const HOST = { 'conf.d/config.json': { client: { name: 'cb-host', address: '127.0.0.1', subscriptions: [] } } };
const AGENT_AUTH = 'Basic ' + Buffer.from(`agent:${AGENT_PASSWORD}`).toString('base64');
const MARKER = 'S3CRET';

// The labels (default list, four spellings) and an own list of one key in three spellings; values carry the marker.
const LABELS = { Password: `a-${MARKER}`, 'API-KEY': `b-${MARKER}`, Secret_Key: `c-${MARKER}`, api_key: `d-${MARKER}`, team: 'visible-team' };
const OWN = { redact: ['Db-Pass'], labels: { db_pass: `e-${MARKER}`, DBPASS: `f-${MARKER}`, password: `g-${MARKER}`, region: 'visible-region' } };
const REDACTED_LABELS = { Password: 'REDACTED', 'API-KEY': 'REDACTED', Secret_Key: 'REDACTED', api_key: 'REDACTED', team: 'visible-team' };
const REDACTED_OWN = { db_pass: 'REDACTED', DBPASS: 'REDACTED', password: 'REDACTED', region: 'visible-region' };

// corev2's Event, Entity and ObjectMeta, numbered as in Sensu Go's event.proto, entity.proto and meta.proto.
const SCHEMA = `syntax = "proto3";
message ObjectMeta { string name = 1; string namespace = 2; map<string, string> labels = 3; map<string, string> annotations = 4; }
message Entity { string entity_class = 1; repeated string subscriptions = 4; repeated string redact = 13; ObjectMeta metadata = 14; }
message Check { uint32 interval = 5; uint32 timeout = 19; string output = 26; uint32 status = 28; ObjectMeta metadata = 38; }
message Event { int64 timestamp = 1; Entity entity = 2; Check check = 3; }`;
const PbEvent = protobuf.parse(SCHEMA, { keepCase: true }).root.lookupType('Event');

function openAgent(url: string, name: string, accept?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: { 'Sensu-AgentName': name, 'Sensu-Namespace': 'default', 'Sensu-User': 'agent', authorization: AGENT_AUTH, ...(accept ? { accept } : {}) },
    });
    ws.once('message', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** A keepalive and an event of an agent whose entity carries `labels` (and an own list). */
function agentFrames(name: string, entity: Json): { keepalive: Json; event: Json } {
  const full = { entity_class: 'agent', ...entity, metadata: { name, ...entity.metadata } };
  return {
    keepalive: { entity: full, check: { metadata: { name: 'keepalive' }, interval: 20, timeout: 120 } },
    event: { entity: full, check: { metadata: { name: 'disk' }, status: 2, output: 'disk full', interval: 60 } },
  };
}

test('every door serves the same labels as REDACTED: v2 entities and events, JSON and protobuf agents, the dashboard, the legacy API', async (t) => {
  const { v2, api, agentd } = await agentInstanceFor(t, HOST);
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;

  // v2 API: a proxy entity of each kind, each with an event.
  const entities: [string, Json][] = [
    ['lab-default', { entity_class: 'proxy', metadata: { labels: LABELS, annotations: { 'Api.Token': `h-${MARKER}` } } }],
    ['lab-own', { entity_class: 'proxy', redact: OWN.redact, metadata: { labels: OWN.labels } }],
  ];
  for (const [name, entity] of entities) {
    assert.equal((await call(`${ns}/entities/${name}`, 'PUT', auth, entity)).status, 200);
    const check = { metadata: { name: 'probe' }, status: 1, output: 'probe-output', interval: 60 };
    assert.equal((await call(`${ns}/events/${name}/probe`, 'PUT', auth, { entity: { ...entity, metadata: { ...entity.metadata, name } }, check })).status, 201);
  }

  // The agent door: one agent over JSON frames, one over protobuf frames.
  const json = await openAgent(agentd, 'js-agent');
  t.after(() => json.terminate());
  const jsFrames = agentFrames('js-agent', { redact: OWN.redact, metadata: { labels: { ...LABELS, ...OWN.labels } } });
  json.send(`keepalive\n${JSON.stringify(jsFrames.keepalive)}`);
  const proto = await openAgent(agentd, 'pb-agent', 'application/octet-stream');
  t.after(() => proto.terminate());
  const pbFrames = agentFrames('pb-agent', { redact: OWN.redact, metadata: { labels: { ...LABELS, ...OWN.labels } } });
  const pb = (type: string, event: Json) => Buffer.concat([Buffer.from(`${type}\n`), PbEvent.encode(PbEvent.fromObject(event)).finish()]);
  proto.send(pb('keepalive', pbFrames.keepalive));
  for (const name of ['js-agent', 'pb-agent'])
    await eventually(
      () => call(`${ns}/entities/${name}`, 'GET', auth),
      (r) => r.status === 200,
    );
  json.send(`event\n${JSON.stringify(jsFrames.event)}`);
  proto.send(pb('event', pbFrames.event));
  for (const name of ['js-agent', 'pb-agent'])
    await eventually(
      () => call(`${ns}/events/${name}/disk`, 'GET', auth),
      (r) => r.status === 200,
    );

  // The legacy API: a client with the same keys as attributes, and its own list.
  assert.equal(
    (await postJson(`${api}/clients`, { name: 'legacy-lab', address: '10.0.0.9', subscriptions: [], ...LABELS, ...OWN.labels, redact: OWN.redact })).status,
    201,
  );

  const v2Reads = [
    `${ns}/entities`,
    `${ns}/entities/lab-default`,
    `${ns}/entities/lab-own`,
    `${ns}/entities/js-agent`,
    `${ns}/entities/pb-agent`,
    `${v2}/api/core/v2/entities`,
    `${ns}/events`,
    `${ns}/events/lab-default/probe`,
    `${ns}/events/lab-own`,
    `${ns}/events/js-agent/disk`,
    `${ns}/events/pb-agent/disk`,
    `${v2}/api/checkbridge/v1/events`,
    `${v2}/api/checkbridge/v1/legacy/clients`,
    `${v2}/api/checkbridge/v1/legacy/clients/legacy-lab`,
    `${v2}/api/checkbridge/v1/legacy/events/js-agent`,
  ];
  const legacyReads = [`${api}/clients`, `${api}/clients/legacy-lab`, `${api}/clients/js-agent`, `${api}/events`, `${api}/events/pb-agent`];
  for (const url of [...v2Reads, ...legacyReads]) {
    const reply = await getJson(url, v2Reads.includes(url) ? { headers: { authorization: auth } } : undefined);
    assert.equal(reply.status, 200, url);
    const text = JSON.stringify(reply.body);
    assert.doesNotMatch(text, new RegExp(MARKER), `${url} shows a secret: ${text}`);
  }

  // The keys stay, their values are REDACTED; the rest is served as sent.
  const entity = async (name: string) => (await call(`${ns}/entities/${name}`, 'GET', auth)).body as Json;
  assert.deepEqual((await entity('lab-default')).metadata.labels, REDACTED_LABELS);
  assert.deepEqual((await entity('lab-default')).metadata.annotations, { 'Api.Token': 'REDACTED' });
  assert.deepEqual((await entity('lab-own')).metadata.labels, REDACTED_OWN);
  for (const name of ['js-agent', 'pb-agent']) {
    assert.deepEqual((await entity(name)).metadata.labels, { ...REDACTED_LABELS, ...REDACTED_OWN }, name);
    const event = (await call(`${ns}/events/${name}/disk`, 'GET', auth)).body as Json;
    assert.deepEqual(event.entity.metadata.labels, { ...REDACTED_LABELS, ...REDACTED_OWN }, `${name}'s event`);
  }
  const legacy = (await getJson(`${api}/clients/legacy-lab`)).body as Json;
  for (const key of [...Object.keys(LABELS), ...Object.keys(OWN.labels)])
    assert.equal(legacy[key], ['team', 'region'].includes(key) ? ((LABELS as Json)[key] ?? (OWN.labels as Json)[key]) : 'REDACTED', key);

  // A selector cannot confirm a guessed value of a redacted label.
  const guess = encodeURIComponent(`API-KEY == b-${MARKER}`);
  assert.deepEqual((await call(`${ns}/events?labelSelector=${guess}`, 'GET', auth)).body, []);
});
