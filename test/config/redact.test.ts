// The one redaction policy: the default keys at any depth, an object's own `redact` list inside it, DSNs without their
// passwords, secret references kept, and resolved secret values taken out of captured output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redact, redactedLabels, redactOutput, redactValues } from '../../src/config/redact.js';

test('redact replaces the default keys at any depth and through arrays, leaving the input alone', () => {
  const settings = { api: { password: 'pw', port: 4567 }, handlers: [{ name: 'slack', webhook_url: 'https://hook', secret: 's' }], user: 'u' };
  assert.deepEqual(redact(settings), {
    api: { password: 'REDACTED', port: 4567 },
    handlers: [{ name: 'slack', webhook_url: 'REDACTED', secret: 'REDACTED' }],
    user: 'u',
  });
  assert.equal(settings.api.password, 'pw');
  assert.deepEqual(redact({ token: 't', password: 'p' }, ['token']), { token: 'REDACTED', password: 'REDACTED' }, 'a list adds to the defaults');
});

test('a value with nothing to redact comes back as the same object', () => {
  const clean = { a: [1, { b: 'c' }], d: { e: null } };
  assert.equal(redact(clean), clean);
  assert.equal(redactOutput(clean), clean);
});

test('a DSN is shown without its password; secret references keep their `secret` names', () => {
  assert.deepEqual(redact({ store: { dsn: 'postgresql://u:pw@db/sensu' } }), { store: { dsn: 'postgresql://u:REDACTED@db/sensu' } });
  assert.deepEqual(redact({ spec: { DSN: "host=db password='a b'" } }), { spec: { DSN: 'host=db password=REDACTED' } });
  const check = { command: 'x', secrets: [{ name: 'TOKEN', secret: 'api-token' }] };
  assert.equal(redact(check), check);
  assert.deepEqual(redact({ secrets: { secret: 'value' } }), { secrets: { secret: 'REDACTED' } }, 'not a reference list: walked as any object');
});

test("redactOutput adds an object's own `redact` list inside it, and only there", () => {
  const event = {
    client: { name: 'web-1', redact: ['snmp_key'], snmp_key: 'k', nested: { snmp_key: 'k2' }, password: 'p' },
    check: { snmp_key: 'visible' },
  };
  assert.deepEqual(redactOutput(event), {
    client: { name: 'web-1', redact: ['snmp_key'], snmp_key: 'REDACTED', nested: { snmp_key: 'REDACTED' }, password: 'REDACTED' },
    check: { snmp_key: 'visible' },
  });
  assert.equal((redact(event) as typeof event).client.snmp_key, 'k');
});

test('class instances are not walked; a key named __proto__ is written as a plain property', () => {
  const when = new Date(0);
  const out = redactOutput({ when, error: Object.assign(new Error('x'), { password: 'p' }) }) as { when: Date; error: { password: string } };
  assert.equal(out.when, when);
  assert.equal(out.error.password, 'p');
  const hostile = JSON.parse('{"__proto__": {"password": "p"}}') as Record<string, unknown>;
  const cleaned = redactOutput(hostile) as Record<string, unknown>;
  assert.deepEqual(Object.getOwnPropertyDescriptor(cleaned, '__proto__')?.value, { password: 'REDACTED' });
  assert.equal(Object.getPrototypeOf(cleaned), Object.prototype);
});

test("redactedLabels redacts labels and annotations whose keys match the entity's list or the defaults", () => {
  const metadata = { name: 'web-1', labels: { region: 'eu', api_key: 'k', snmp: 'c' }, annotations: { password: 'p' } };
  assert.deepEqual(redactedLabels(metadata, ['snmp']), {
    name: 'web-1',
    labels: { region: 'eu', api_key: 'REDACTED', snmp: 'REDACTED' },
    annotations: { password: 'REDACTED' },
  });
  assert.deepEqual(metadata.labels, { region: 'eu', api_key: 'k', snmp: 'c' });
  assert.deepEqual(redactedLabels({ name: 'n', labels: 'odd' }, null), { name: 'n', labels: 'odd' });
});

test('redactValues replaces every resolved value, longest first, and ignores empty ones', () => {
  assert.equal(redactValues('token abc and abcdef, abc again', ['abc', 'abcdef', '']), 'token REDACTED and REDACTED, REDACTED again');
  assert.equal(redactValues('nothing here', []), 'nothing here');
});
