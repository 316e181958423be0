import { test } from 'node:test';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { BIN } from '../helpers/paths.js';
import assert from 'node:assert/strict';
import { instanceFor } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { startOidcProvider, browse, CLIENT } from '../servers/oidc.js';

const BASE = '/api/enterprise/authentication/v2';
const tokensIn = (html: string) => JSON.parse(/<script type="application\/json" id="checkbridge-tokens">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null');

test('OIDC login CSRF: a callback with a valid state is taken only from the browser that started the sign-in', async (t) => {
  const { v2, daemon } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'oidc-csrf-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const callback = `${v2}${BASE}/oidc/callback`;
  const idp = await startOidcProvider(callback);
  t.after(() => idp.close());
  const spec = {
    server: idp.issuer,
    client_id: CLIENT.id,
    client_secret: CLIENT.secret,
    redirect_uri: callback,
    username_claim: 'email',
    username_prefix: 'sso:',
    groups_claim: 'groups',
    groups_prefix: 'sso:',
    additional_scopes: ['email', 'groups'],
  };
  assert.equal(
    (await call(`${v2}${BASE}/authproviders/sso`, 'PUT', admin, { Type: 'oidc', api_version: 'authentication/v2', metadata: { name: 'sso' }, spec })).status,
    201,
  );

  // The attacker signs in as eve in their own browser and hands the callback link (valid code and state) to a victim.
  const attacker = await browse(`${v2}${BASE}/oidc/authorize`, 'eve', { stopBefore: callback });
  assert.equal(attacker.status, 0, 'stopped before the callback');
  assert.ok(new URL(attacker.url).searchParams.get('state') && new URL(attacker.url).searchParams.get('code'));
  const victim = await fetch(attacker.url, { headers: { accept: 'text/html' } });
  const page = await victim.text();
  assert.equal(victim.status, 403, page);
  assert.match(page, /not started in this browser/);
  assert.equal(tokensIn(page), null, 'no tokens for the victim');
  assert.equal((await call(`${v2}/api/core/v2/users/sso:eve@acme.org`, 'GET', admin)).status, 404, 'no user was recorded');
  assert.ok(daemon.logs.some((l) => l.msg === 'OIDC callback refused: not the browser that started the sign-in'));
  // The refused callback is not used up: it stays the starting browser's (here the attacker's own, for eve).
  assert.equal((await fetch(attacker.url, { headers: { cookie: attacker.cookie } })).status, 200);

  // What binds a flow to its browser: an HttpOnly, SameSite=Lax cookie set by authorize, for the callback's path, as long as the flow lives.
  const start = await fetch(`${v2}${BASE}/oidc/authorize`, { redirect: 'manual' });
  assert.equal(start.status, 302);
  const [cookie] = start.headers.getSetCookie();
  assert.match(
    String(cookie),
    /^checkbridge_oidc_[0-9a-f]{16}=[\w-]{43}; Path=\/api\/enterprise\/authentication\/v2\/oidc\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/,
  );

  // Another sign-in's secret, even under this sign-in's cookie name, is not this one's binding.
  const first = await browse(`${v2}${BASE}/oidc/authorize`, 'eve', { stopBefore: callback });
  const second = await browse(`${v2}${BASE}/oidc/authorize`, 'eve', { stopBefore: callback });
  const firstSecret = /checkbridge_oidc_[0-9a-f]{16}=([\w-]+)/.exec(first.cookie)![1];
  const secondName = `checkbridge_oidc_${createHash('sha256').update(new URL(second.url).searchParams.get('state')!).digest('hex').slice(0, 16)}`;
  assert.ok(second.cookie.includes(`${secondName}=`), 'the cookie is named after its own state');
  const crossed = await fetch(second.url, { headers: { cookie: `${secondName}=${firstSecret}` } });
  assert.equal(crossed.status, 403, await crossed.text());

  // The browser that started it signs in.
  const own = await fetch(first.url, { headers: { cookie: first.cookie } });
  const ownPage = await own.text();
  assert.equal(own.status, 200, ownPage);
  assert.ok(tokensIn(ownPage)?.access_token);
  assert.match(String(own.headers.getSetCookie()[0]), /^checkbridge_oidc_[0-9a-f]{16}=; .*Max-Age=0/, 'the binding cookie is cleared');

  // The terminal flow, started by another name of this host: the browser is first sent to the callback's host, so the
  // cookie is where the callback is, and `checkbridge login --oidc` gets its tokens.
  const cli = spawn(process.execPath, [BIN, 'login', '--oidc', '--no-browser', '--url', v2.replace('127.0.0.1', 'localhost')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => void cli.kill());
  let stdout = '';
  let stderr = '';
  cli.stdout.on('data', (d) => (stdout += d));
  const url = await new Promise<string>((resolve) =>
    cli.stderr.on('data', (d) => {
      stderr += d;
      const found = /Sign in at: (\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    }),
  );
  assert.ok(url.startsWith('http://localhost:'), url);
  const posted = await browse(url, 'dana');
  assert.match(posted.html, /Signed in: you may close this window/);
  assert.equal(await new Promise((resolve) => cli.on('exit', resolve)), 0, stderr);
  assert.equal((await call(`${v2}/api/core/v2/users/sso:dana@acme.org`, 'GET', `Bearer ${JSON.parse(stdout).access_token}`)).status, 200);
});

// The callback used up the flow before checking the binding, so anyone who learned a
// sign-in's `state` (a shared link, a referrer, a log) could cancel that sign-in by calling the callback first.
test('OIDC: a callback without the binding does not use up the sign-in; the browser that started it still completes it', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'oidc-cancel-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const callback = `${v2}${BASE}/oidc/callback`;
  const idp = await startOidcProvider(callback);
  t.after(() => idp.close());
  const spec = {
    server: idp.issuer,
    client_id: CLIENT.id,
    client_secret: CLIENT.secret,
    redirect_uri: callback,
    username_claim: 'email',
    username_prefix: 'sso:',
    groups_claim: 'groups',
    groups_prefix: 'sso:',
    additional_scopes: ['email', 'groups'],
  };
  assert.equal(
    (await call(`${v2}${BASE}/authproviders/sso`, 'PUT', admin, { Type: 'oidc', api_version: 'authentication/v2', metadata: { name: 'sso' }, spec })).status,
    201,
  );

  // Alice's browser is on its way back with a code; someone who learned the state gets there first, with and without a code.
  const alice = await browse(`${v2}${BASE}/oidc/authorize`, 'alice', { stopBefore: callback });
  const state = new URL(alice.url).searchParams.get('state')!;
  for (const url of [
    `${callback}?state=${encodeURIComponent(state)}`,
    `${callback}?state=${encodeURIComponent(state)}&code=forged`,
    `${callback}?state=${encodeURIComponent(state)}&error=access_denied`,
  ]) {
    const early = await fetch(url, { headers: { accept: 'text/html' } });
    assert.equal(early.status, 403, await early.text());
  }
  const own = await fetch(alice.url, { headers: { cookie: alice.cookie } });
  const ownPage = await own.text();
  assert.equal(own.status, 200, ownPage);
  assert.ok(tokensIn(ownPage)?.access_token, 'alice is signed in');
  // Taken once: the same callback again is unknown.
  assert.equal((await fetch(alice.url, { headers: { cookie: alice.cookie } })).status, 400);
});
