// The legacy Redis transport settings: URL and hash forms, sentinels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisOptions } from '../../../src/transport/redis/settings.js';

test('redis: a URL ignores its /db; the hash db is in the key names; sentinels', () => {
  const url = redisOptions('redis://:secret@cache:6380/5');
  assert.deepEqual([url.options.host, url.options.port, url.options.password, url.db], ['cache', 6380, 'secret', 0]);
  const hash = redisOptions({ host: 'h', port: 7000, db: 2, password: 'p' });
  assert.deepEqual([hash.options.host, hash.options.port, hash.options.db, hash.db], ['h', 7000, 2, 2]);
  const sentinel = redisOptions({ sentinels: [{ host: 's1' }, { host: 's2', port: 26380 }], master: 'm' });
  assert.deepEqual(sentinel.options.sentinels, [
    { host: 's1', port: 26379 },
    { host: 's2', port: 26380 },
  ]);
  assert.equal(sentinel.options.name, 'm');
  assert.deepEqual(redisOptions({ sentinels: 'redis://s1:1,s2' }).options.sentinels, [
    { host: 's1', port: 1 },
    { host: 's2', port: 26379 },
  ]);
  assert.equal(redisOptions({ sentinels: [{ host: 's' }] }).options.name, 'mymaster');
  assert.throws(() => redisOptions('amqp://x'), /redis/);
});
