// The agent door's protobuf codec serves an entity as every other door does: its labels and annotations under the
// one redaction policy (the defaults matched case-blind and beyond punctuation, its own `redact` list added).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { COREV2_PROTO } from '../../../src/v2/index.js';
import { decodeProtobuf } from '../../../src/agentd/proto/codec.js';

const Event = protobuf.parse(COREV2_PROTO, { keepCase: true }).root.lookupType('sensu.core.v2.Event');
const encoded = (entity: object) => Event.encode(Event.fromObject({ entity: { entity_class: 'agent', ...entity } })).finish();

test("a protobuf event's entity comes out with the labels the one policy names as REDACTED, the rest as sent", () => {
  const labels = { Password: 'a', 'API-KEY': 'b', Secret_Key: 'c', api_key: 'd', Community: 'e', team: 'blue' };
  const plain = decodeProtobuf('Event', encoded({ metadata: { name: 'pb-1', labels, annotations: { 'Api.Token': 'f', note: 'g' } } }), { maxDepth: 64 });
  assert.equal(typeof plain, 'object', String(plain));
  const entity = (plain as { entity: { metadata: { labels: object; annotations: object } } }).entity;
  assert.deepEqual(entity.metadata.labels, {
    Password: 'REDACTED',
    'API-KEY': 'REDACTED',
    Secret_Key: 'REDACTED',
    api_key: 'REDACTED',
    Community: 'REDACTED',
    team: 'blue',
  });
  assert.deepEqual(entity.metadata.annotations, { 'Api.Token': 'REDACTED', note: 'g' });

  const own = decodeProtobuf(
    'Event',
    encoded({ redact: ['Db-Pass'], metadata: { name: 'pb-2', labels: { db_pass: 'h', DBPASS: 'i', password: 'j', team: 'k' } } }),
    { maxDepth: 64 },
  );
  assert.deepEqual((own as { entity: { metadata: { labels: object } } }).entity.metadata.labels, {
    db_pass: 'REDACTED',
    DBPASS: 'REDACTED',
    password: 'REDACTED',
    team: 'k',
  });
});
