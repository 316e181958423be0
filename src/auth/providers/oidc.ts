import { randomBytes } from 'node:crypto';
import type * as OpenIdClient from 'openid-client';
import type { OidcSpec, Provider } from './provider-spec.js';
import type { ReadClock } from '../../schedule/index.js';

// The OpenID client loads with the first sign-in through a provider: a daemon without one never parses it.
let openIdClient: Promise<typeof OpenIdClient> | undefined;
const loadClient = () => (openIdClient ??= import('openid-client'));

/** One sign-in in progress: what the callback needs to check the answer (PKCE verifier, state, nonce). */
export interface OidcFlow {
  readonly provider: string;
  readonly verifier: string;
  readonly nonce: string;
  readonly redirectUri: string;
  /** A loopback address (the CLI's) the tokens are handed to, if any. */
  readonly returnTo: string | null;
  /** The hash of the secret the starting browser holds in a cookie (oidc-binding.ts). */
  readonly bindingHash: string;
  readonly expiresAt: number;
}

// Ten minutes to sign in; bounded so that unfinished flows cannot grow memory without end.
export const FLOW_TTL_MS = 10 * 60_000;
const MAX_FLOWS = 10_000;

export class FlowsFull extends Error {}

/** Flows by their `state`; each is taken once. */
export class OidcFlows {
  private readonly flows = new Map<string, OidcFlow>();

  constructor(private readonly clock: ReadClock) {}

  /** A new flow's `state`; when the table is full of live flows, a FlowsFull error (never evict someone's sign-in). */
  add(flow: Omit<OidcFlow, 'expiresAt'>): string {
    if (this.flows.size >= MAX_FLOWS) for (const [state, f] of this.flows) if (f.expiresAt <= this.clock.now()) this.flows.delete(state);
    if (this.flows.size >= MAX_FLOWS) throw new FlowsFull('too many sign-ins in progress: try again in a few minutes');
    // 32 random bytes, as the OpenID client's own randomState draws.
    const state = randomBytes(32).toString('base64url');
    this.flows.set(state, { ...flow, expiresAt: this.clock.now() + FLOW_TTL_MS });
    return state;
  }

  /**
   * The live flow under `state`, taken (once) only when `accept` holds for it: a callback refused (another browser,
   * without the binding) leaves the sign-in to the browser that started it, and answers `{ refused }` naming its
   * provider. `unknown`: no live flow by that state.
   */
  take(state: string, accept: (flow: OidcFlow) => boolean): OidcFlow | 'unknown' | { refused: string } {
    const flow = this.flows.get(state);
    if (!flow || flow.expiresAt <= this.clock.now()) {
      this.flows.delete(state);
      return 'unknown';
    }
    if (!accept(flow)) return { refused: flow.provider };
    this.flows.delete(state);
    return flow;
  }
}

// Plain HTTP only to an identity provider on this machine (tests, a local proxy); anywhere else it must be HTTPS.
const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

const discovered = new Map<string, Promise<OpenIdClient.Configuration>>();

/** The provider's discovered configuration (issuer, endpoints, JWKS), cached per provider settings. */
function configuration(spec: OidcSpec): Promise<OpenIdClient.Configuration> {
  const key = JSON.stringify([spec.server, spec.client_id, spec.client_secret]);
  let config = discovered.get(key);
  if (!config) {
    const server = new URL(spec.server);
    // Non-repudiation checks: the ID token's signature is verified against the provider's JWKS, not only trusted from TLS.
    config = loadClient().then((client) => {
      const execute = [client.enableNonRepudiationChecks, ...(isLoopback(server) ? [client.allowInsecureRequests] : [])];
      return client.discovery(server, spec.client_id, spec.client_secret, undefined, { execute, timeout: 10 });
    });
    // A failed discovery is not kept: the next sign-in tries again.
    config.catch(() => discovered.delete(key));
    discovered.set(key, config);
  }
  return config;
}

/**
 * Where to send the browser: the provider's authorization endpoint with PKCE (S256), state and nonce; and the
 * `state` the flow is kept under, which the browser's binding cookie is named from.
 */
export async function authorizeUrl(
  provider: Provider,
  flows: OidcFlows,
  redirectUri: string,
  returnTo: string | null,
  bindingHash: string,
): Promise<{ url: URL; state: string }> {
  const spec = provider.spec as OidcSpec;
  const [config, client] = [await configuration(spec), await loadClient()];
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = flows.add({ provider: provider.metadata.name, verifier, nonce, redirectUri, returnTo, bindingHash });
  const scopes = ['openid', ...spec.additional_scopes, ...(spec.disable_offline_access ? [] : ['offline_access'])];
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: [...new Set(scopes)].join(' '),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    // offline_access is only granted with consent (OpenID Connect Core 11).
    ...(spec.disable_offline_access ? {} : { prompt: 'consent' }),
  });
  return { url, state };
}

/** The signed-in user's name and groups (without prefixes) from the validated ID token. */
export interface OidcIdentity {
  readonly name: string;
  readonly groups: string[];
}

/**
 * Exchanges the code (with the PKCE verifier) and validates the ID token: signature through the provider's JWKS,
 * issuer, audience, expiry, nonce. Throws with the reason when anything does not hold.
 */
export async function completeSignIn(provider: Provider, flow: OidcFlow, callbackUrl: URL, state: string): Promise<OidcIdentity> {
  const spec = provider.spec as OidcSpec;
  const [config, client] = [await configuration(spec), await loadClient()];
  const tokens = await client.authorizationCodeGrant(
    config,
    callbackUrl,
    { pkceCodeVerifier: flow.verifier, expectedNonce: flow.nonce, expectedState: state, idTokenExpected: true },
    { redirect_uri: flow.redirectUri },
  );
  const claims = tokens.claims();
  if (!claims) throw new Error('the provider returned no ID token');
  const name = claims[spec.username_claim];
  if (typeof name !== 'string' || name === '') throw new Error(`the ID token has no ${spec.username_claim} claim`);
  const raw = spec.groups_claim ? claims[spec.groups_claim] : undefined;
  const groups = Array.isArray(raw) ? raw.filter((g): g is string => typeof g === 'string') : typeof raw === 'string' ? [raw] : [];
  return { name, groups };
}
