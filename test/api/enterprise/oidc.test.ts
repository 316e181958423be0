import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { instanceFor } from '../../helpers/instance.js';
import { BIN } from '../../helpers/paths.js';
import { call, adminToken } from '../v2/v2-helpers.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { startOidcProvider, browse, CLIENT, type Tamper } from '../../servers/oidc.js';

const BASE = '/api/enterprise/authentication/v2';
const tokensIn = (html: string) => JSON.parse(/<script type="application\/json" id="checkbridge-tokens">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null');

test('OIDC: authorization code with PKCE against a real oidc-provider; ID token checks; claims to name and groups; CLI login', async (t) => {
  const { v2, daemon } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'oidc-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const callback = `${v2}${BASE}/oidc/callback`;
  const idp = await startOidcProvider(callback);
  t.after(() => idp.close());

  // No provider yet: nothing to sign in with.
  assert.equal((await call(`${v2}${BASE}/oidc/authorize`, 'GET', null)).status, 404);
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

  // authorize redirects to the provider with PKCE (S256), state, nonce and the scopes.
  const start = await fetch(`${v2}${BASE}/oidc/authorize`, { redirect: 'manual' });
  assert.equal(start.status, 302);
  const to = new URL(start.headers.get('location')!);
  assert.equal(to.origin, idp.issuer);
  assert.equal(to.searchParams.get('client_id'), CLIENT.id);
  assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(to.searchParams.get('redirect_uri'), callback);
  assert.deepEqual(to.searchParams.get('scope')!.split(' ').sort(), ['email', 'groups', 'offline_access', 'openid']);
  assert.ok(to.searchParams.get('state') && to.searchParams.get('nonce'));

  // The whole flow, login form and consent included: a page holding tokens for sso:dana@acme.org with her groups.
  const done = await browse(`${v2}${BASE}/oidc/authorize`, 'dana');
  assert.equal(done.status, 200, done.html);
  assert.ok(done.url.startsWith(callback));
  const tokens = tokensIn(done.html);
  assert.deepEqual(Object.keys(tokens).sort(), ['access_token', 'expires_at', 'refresh_token']);
  const dana = `Bearer ${tokens.access_token}`;
  assert.deepEqual((await call(`${v2}/api/core/v2/users/sso:dana@acme.org`, 'GET', dana)).body, {
    username: 'sso:dana@acme.org',
    groups: ['sso:sre', 'sso:dev'],
    disabled: false,
  });
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events`, 'GET', dana)).status, 403);
  assert.equal(
    (
      await call(`${v2}/api/core/v2/clusterrolebindings/sre`, 'PUT', admin, {
        subjects: [{ type: 'Group', name: 'sso:sre' }],
        role_ref: { type: 'ClusterRole', name: 'view' },
      })
    ).status,
    201,
  );
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events`, 'GET', dana)).status, 200, 'her OIDC group is bound to view');
  assert.equal((await call(`${v2}/api/core/v2/apikeys`, 'POST', admin, { username: 'sso:dana@acme.org' })).status, 400, 'no API keys for external users');
  const refreshed = await call(`${v2}/auth/token`, 'POST', dana, { refresh_token: tokens.refresh_token });
  assert.equal(refreshed.status, 200);

  // A callback is taken once: replaying it is refused.
  const replay = await fetch(done.url);
  assert.equal(replay.status, 400);

  // ID tokens that are expired, for another audience, with another nonce, or signed by a key not in the JWKS: refused.
  const reasons: [Tamper, RegExp][] = [
    ['expired', /"exp" \(expiration time\)/],
    ['audience', /"aud" \(audience\)/],
    ['nonce', /"nonce" claim value/],
    ['foreign-key', /signature verification failed/],
  ];
  for (const [tamper, reason] of reasons) {
    idp.tamper = tamper;
    const refused = await browse(`${v2}${BASE}/oidc/authorize`, 'eve');
    assert.equal(refused.status, 401, `${tamper}: ${refused.html}`);
    assert.equal(tokensIn(refused.html), null);
    assert.match(refused.html, /The sign-in was refused/);
    assert.match(String(daemon.logs.filter((l) => l.msg === 'OIDC sign-in refused').pop()?.reason), reason, tamper!);
  }
  idp.tamper = null;
  assert.equal((await call(`${v2}/api/core/v2/users/sso:eve@acme.org`, 'GET', admin)).status, 404, 'no refused sign-in recorded a user');

  // Without a configured redirect_uri the callback is this listener's own address, never the request's Host header;
  // a browser that came by another name is first sent to the same page on that address (where its cookie belongs).
  assert.equal(
    (
      await call(`${v2}${BASE}/authproviders/sso-plain`, 'PUT', admin, {
        Type: 'oidc',
        api_version: 'authentication/v2',
        metadata: { name: 'sso-plain' },
        spec: { ...spec, redirect_uri: '' },
      })
    ).status,
    201,
  );
  const spoofed = await rawRequest(v2, 'GET', `${BASE}/oidc/authorize?provider=sso-plain`, { host: 'evil.example' });
  assert.equal(spoofed.status, 302);
  const hop = new URL(String(spoofed.headers.location));
  assert.equal(hop.href, `${v2}${BASE}/oidc/authorize?provider=sso-plain&hop=1`);
  const hopped = await fetch(hop, { redirect: 'manual' });
  assert.equal(hopped.status, 302);
  assert.equal(new URL(hopped.headers.get('location')!).searchParams.get('redirect_uri'), callback);
  assert.equal((await call(`${v2}${BASE}/authproviders/sso-plain`, 'DELETE', admin)).status, 204);

  // return_to only to a loopback address.
  assert.equal((await call(`${v2}${BASE}/oidc/authorize?return_to=${encodeURIComponent('https://evil.example/x')}`, 'GET', null)).status, 400);

  // The CLI: prints the sign-in URL, waits on a loopback port, prints the tokens the callback page posts to it.
  const cli = spawn(process.execPath, [BIN, 'login', '--oidc', '--no-browser', '--url', v2], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  assert.match(url, /return_to=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/);
  const posted = await browse(url, 'dana');
  assert.equal(posted.status, 200);
  assert.match(posted.html, /Signed in: you may close this window/);
  const code = await new Promise((resolve) => cli.on('exit', resolve));
  assert.equal(code, 0, stderr);
  const printed = JSON.parse(stdout);
  assert.equal((await call(`${v2}/api/core/v2/users/sso:dana@acme.org`, 'GET', `Bearer ${printed.access_token}`)).status, 200);

  // The client secret is never logged.
  assert.ok(!JSON.stringify(daemon.logs).includes(CLIENT.secret));
});
