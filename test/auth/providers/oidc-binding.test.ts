// The cookie that binds an OpenID sign-in to the browser that started it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { newBinding, bindingCookieName, bindingCookie, clearedBindingCookie, readCookie, bindingHolds } from '../../../src/auth/providers/oidc-binding.js';

test('a binding is a random secret and the SHA-256 of it, both base64url', () => {
  const one = newBinding();
  const two = newBinding();
  assert.match(one.secret, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(one.secret, two.secret);
  assert.equal(one.hash, createHash('sha256').update(one.secret).digest('base64url'));
});

test('only the secret whose hash was kept holds', () => {
  const { secret, hash } = newBinding();
  assert.equal(bindingHolds(hash, secret), true);
  assert.equal(bindingHolds(hash, newBinding().secret), false);
  assert.equal(bindingHolds(hash, null), false);
  assert.equal(bindingHolds(hash, ''), false);
  assert.equal(bindingHolds('short', secret), false, 'a kept hash of another length never holds');
});

test('each sign-in’s cookie is named from its state, and the same state gives the same name', () => {
  assert.match(bindingCookieName('state-a'), /^checkbridge_oidc_[0-9a-f]{16}$/);
  assert.equal(bindingCookieName('state-a'), bindingCookieName('state-a'));
  assert.notEqual(bindingCookieName('state-a'), bindingCookieName('state-b'));
});

test('the cookie is HttpOnly, SameSite=Lax, for the callback only, Secure over HTTPS; clearing it sets Max-Age 0', () => {
  const name = bindingCookieName('s');
  assert.equal(bindingCookie('s', 'secret', '/cb', true, 600), `${name}=secret; Path=/cb; Max-Age=600; HttpOnly; SameSite=Lax; Secure`);
  assert.equal(bindingCookie('s', 'secret', '/cb', false, 600), `${name}=secret; Path=/cb; Max-Age=600; HttpOnly; SameSite=Lax`);
  assert.equal(clearedBindingCookie('s', '/cb', false), `${name}=; Path=/cb; Max-Age=0; HttpOnly; SameSite=Lax`);
});

test('one cookie is read from a Cookie header by exact name', () => {
  const header = 'other=1; checkbridge_oidc_ab=xyz=; checkbridge_oidc_a=short';
  assert.equal(readCookie(header, 'checkbridge_oidc_ab'), 'xyz=');
  assert.equal(readCookie(header, 'checkbridge_oidc_a'), 'short');
  assert.equal(readCookie(header, 'missing'), null);
  assert.equal(readCookie(undefined, 'other'), null);
  assert.equal(readCookie('=value; x', 'x'), null);
});
