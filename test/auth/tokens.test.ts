// The API's HS256 tokens: a short access token and a refresh token bound to one session; API keys stored hashed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashApiKey, newSigningKey, TokenIssuer } from '../../src/auth/tokens.js';

const NOW = 1_700_000_000;

test('an issued pair verifies as its own kind, with the user, groups and session; the access token lasts 5 minutes', async () => {
  const issuer = new TokenIssuer(newSigningKey());
  const pair = await issuer.issue('alice', ['ops'], 'session-1', NOW);
  assert.equal(pair.expires_at, NOW + 300);
  const access = await issuer.verify(pair.access_token, 'access', { nowS: NOW + 299 });
  assert.deepEqual([access?.sub, access?.groups, access?.session_id, access?.kind, access?.exp], ['alice', ['ops'], 'session-1', 'access', NOW + 300]);
  const refresh = await issuer.verify(pair.refresh_token, 'refresh', { nowS: NOW + 12 * 3600 - 1 });
  assert.deepEqual([refresh?.kind, refresh?.jti], ['refresh', pair.refresh_id]);
  assert.notEqual(access?.jti, refresh?.jti);
});

test('the wrong kind, an expired token, another key or a changed token do not verify', async () => {
  const issuer = new TokenIssuer(newSigningKey());
  const pair = await issuer.issue('alice', [], 's', NOW);
  assert.equal(await issuer.verify(pair.access_token, 'refresh', { nowS: NOW }), null);
  assert.equal(await issuer.verify(pair.refresh_token, 'access', { nowS: NOW }), null);
  assert.equal(await issuer.verify(pair.access_token, 'access', { nowS: NOW + 301 }), null);
  assert.equal(await issuer.verify(pair.refresh_token, 'refresh', { nowS: NOW + 12 * 3600 + 1 }), null);
  assert.equal(await new TokenIssuer(newSigningKey()).verify(pair.access_token, 'access', { nowS: NOW }), null);
  const [header, payload, signature] = pair.access_token.split('.') as [string, string, string];
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'admin' })).toString('base64url');
  assert.equal(await issuer.verify(`${header}.${forged}.${signature}`, 'access', { nowS: NOW }), null);
  assert.equal(await issuer.verify('not a token', 'access', { nowS: NOW }), null);
});

test('an expired access token is still read when the caller allows it (to refresh), but only a genuine one of that kind', async () => {
  const issuer = new TokenIssuer(newSigningKey());
  const pair = await issuer.issue('alice', [], 's', NOW);
  const later = { nowS: NOW + 3600, allowExpired: true };
  assert.equal((await issuer.verify(pair.access_token, 'access', later))?.sub, 'alice');
  assert.equal(await issuer.verify(pair.access_token, 'refresh', later), null);
  assert.equal(await new TokenIssuer(newSigningKey()).verify(pair.access_token, 'access', later), null, 'expired and signed by another key');
});

test('signing keys are 32 random bytes; an API key is stored as its SHA-256', () => {
  const key = newSigningKey();
  assert.equal(Buffer.from(key, 'base64').length, 32);
  assert.notEqual(newSigningKey(), key);
  assert.equal(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
