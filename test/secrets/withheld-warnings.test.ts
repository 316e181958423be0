// The "secrets withheld" warning is said once per check and member, and what it remembers is bounded: member names are
// the senders' choice (broker clients, agents), so a stream of new names never grows memory without limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { RemoteSecrets } from '../../src/secrets/index.js';

test('secrets withheld: said once per check and member, and no more than 10,000 of them remembered', () => {
  let said = 0;
  const logger = pino({ level: 'warn' }, { write: () => void said++ });
  const secrets = new RemoteSecrets(async () => ({ ok: true as const, env: {}, values: [] }), logger);
  const member = (name: string) => ({ kind: 'client', name });
  secrets.noteWithheld('default', 'disk', member('web-1'), 'no TLS');
  secrets.noteWithheld('default', 'disk', member('web-1'), 'no TLS');
  assert.equal(said, 1, 'once per check and member');
  for (let i = 0; i < 50_000; i++) secrets.noteWithheld('default', 'disk', member(`spoof-${i}`), 'no TLS');
  assert.equal(said, 10_000, 'remembered (and said) up to the bound, then no more');
});
