// OpenID sign-ins: the table of flows under way, and the code flow with PKCE against a real oidc-provider.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { OidcFlows, FlowsFull, FLOW_TTL_MS, authorizeUrl, completeSignIn, type OidcFlow } from '../../../src/auth/providers/oidc.js';
import { parseProvider, type Provider } from '../../../src/auth/providers/provider-spec.js';
import { startOidcProvider, browse, CLIENT, type OidcServer } from '../../servers/oidc.js';

const flow = { provider: 'sso', verifier: 'v', nonce: 'n', redirectUri: 'http://127.0.0.1/cb', returnTo: null, bindingHash: 'h' };

function clockAt(start: number) {
  const clock = { ms: start, now: () => clock.ms };
  return clock;
}

test('a flow is kept under a fresh random state and taken once, with its expiry', () => {
  const clock = clockAt(1_000);
  const flows = new OidcFlows(clock);
  const state = flows.add(flow);
  assert.match(state, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(flows.add(flow), state);
  assert.deepEqual(
    flows.take(state, () => true),
    { ...flow, expiresAt: 1_000 + FLOW_TTL_MS },
  );
  assert.equal(
    flows.take(state, () => true),
    'unknown',
  );
});

test('a callback refused by the check leaves the flow to the browser that started it', () => {
  const flows = new OidcFlows(clockAt(0));
  const state = flows.add(flow);
  const seen: OidcFlow[] = [];
  assert.deepEqual(
    flows.take(state, (f) => (seen.push(f), false)),
    { refused: 'sso' },
  );
  assert.equal(seen[0]!.verifier, 'v');
  assert.equal(typeof flows.take(state, () => true), 'object');
});

test('a flow past its ten minutes is unknown', () => {
  const clock = clockAt(0);
  const flows = new OidcFlows(clock);
  const state = flows.add(flow);
  clock.ms = FLOW_TTL_MS;
  assert.equal(
    flows.take(state, () => true),
    'unknown',
  );
});

test('a full table refuses new flows rather than evicting live ones, and makes room from expired ones', () => {
  const clock = clockAt(0);
  const flows = new OidcFlows(clock);
  const first = flows.add(flow);
  for (let i = 1; i < 10_000; i++) flows.add(flow);
  assert.throws(
    () => flows.add(flow),
    (error: Error) => error instanceof FlowsFull && error.message === 'too many sign-ins in progress: try again in a few minutes',
  );
  clock.ms = FLOW_TTL_MS + 1;
  const state = flows.add(flow);
  assert.equal(typeof flows.take(state, () => true), 'object');
  assert.equal(
    flows.take(first, () => true),
    'unknown',
  );
});

const REDIRECT = 'http://127.0.0.1:9/oidc/callback';
let idp: OidcServer;
let provider: Provider;
before(async () => {
  idp = await startOidcProvider(REDIRECT);
  const parsed = parseProvider(
    {
      Type: 'oidc',
      api_version: 'authentication/v2',
      metadata: { name: 'sso' },
      spec: {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        server: idp.issuer,
        username_claim: 'email',
        groups_claim: 'groups',
        additional_scopes: ['email', 'groups'],
        disable_offline_access: true,
      },
    },
    'sso',
    null,
  );
  if (typeof parsed === 'string') throw new Error(parsed);
  provider = parsed;
});
after(async () => {
  await idp?.close();
});

/** Sends a browser through the provider's login as `login`; the callback URL it is sent back to, and the flow's state. */
async function signInAs(login: string) {
  const flows = new OidcFlows({ now: () => Date.now() });
  const { url, state } = await authorizeUrl(provider, flows, REDIRECT, null, 'binding-hash');
  const callback = await browse(url.href, login, { stopBefore: REDIRECT });
  assert.equal(callback.status, 0, callback.html);
  const taken = flows.take(state, (f) => f.bindingHash === 'binding-hash');
  assert.equal(typeof taken, 'object');
  return { url, state, callback: new URL(callback.url), flow: taken as OidcFlow };
}

test('the authorization URL asks for the code with PKCE (S256), the state, a nonce and the scopes', async () => {
  const { url, state, flow: taken } = await signInAs('eve');
  assert.equal(url.origin, idp.issuer);
  assert.equal(url.searchParams.get('state'), state);
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(url.searchParams.get('nonce'), taken.nonce);
  assert.equal(url.searchParams.get('redirect_uri'), REDIRECT);
  assert.equal(url.searchParams.get('scope'), 'openid email groups');
  assert.equal(url.searchParams.get('prompt'), null, 'consent is asked only with offline access');
  assert.equal(taken.provider, 'sso');
});

test('the code exchanged with the verifier gives the name and groups from the validated ID token', async () => {
  const { callback, state, flow: taken } = await signInAs('dana');
  assert.deepEqual(await completeSignIn(provider, taken, callback, state), { name: 'dana@acme.org', groups: ['sre', 'dev'] });
});

test('an ID token with another nonce or signed by a foreign key is refused', async () => {
  for (const tamper of ['nonce', 'foreign-key'] as const) {
    const { callback, state, flow: taken } = await signInAs('dana');
    idp.tamper = tamper;
    try {
      await assert.rejects(completeSignIn(provider, taken, callback, state), tamper);
    } finally {
      idp.tamper = null;
    }
  }
});

test('a callback answering another state is refused', async () => {
  const { callback, flow: taken } = await signInAs('eve');
  await assert.rejects(completeSignIn(provider, taken, callback, 'not-the-state'));
});
