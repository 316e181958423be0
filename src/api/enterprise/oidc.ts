import { FlowsFull } from '../../auth/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, type V2ApiDeps } from '../v2/context.js';
import { issueTokens } from '../v2/auth.js';
import { getProvider, listProviders } from '../../auth/index.js';
import { recordExternalUser } from '../../auth/index.js';
import { OidcFlows, authorizeUrl, completeSignIn, FLOW_TTL_MS } from '../../auth/index.js';
import { newBinding, bindingCookie, clearedBindingCookie, bindingCookieName, bindingHolds, readCookie } from '../../auth/index.js';

const OIDC = '/api/enterprise/authentication/v2/oidc';
const CALLBACK_PATH = `${OIDC}/callback`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// JSON inside <script>: no `<` can close the element early.
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The library's message with the claim or check it names (`exp`, `aud`, `nonce`, a signature). */
function refusalReason(error: unknown): string {
  const e = error as { message?: string; code?: string; cause?: { claim?: string; message?: string } };
  const detail = e.cause?.claim ? ` (${e.cause.claim})` : e.cause?.message ? ` (${e.cause.message})` : '';
  return `${e.message ?? String(error)}${detail}`;
}

/** Only a loopback address may receive tokens (the CLI waiting on its own port): never an arbitrary site. */
function loopback(returnTo: string): string | null {
  if (!URL.canParse(returnTo)) return null;
  const url = new URL(returnTo);
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.port !== '' && !url.username && !url.password
    ? url.href
    : null;
}

/**
 * The binding cookie is set for the callback's host, so the sign-in must start there: a browser that came by another
 * name (`localhost` for `127.0.0.1`) is sent once to the same authorize page on the callback's host (from the
 * configured redirect_uri or this listener's address, never from the Host header). Null: start here.
 */
function callbackHostHop(request: FastifyRequest, redirectUri: string): string | null {
  const callback = new URL(redirectUri);
  const query = request.url.split('?')[1] ?? '';
  if (request.host.toLowerCase() === callback.host.toLowerCase() || new URLSearchParams(query).has('hop') || !callback.pathname.endsWith('/callback'))
    return null;
  return `${callback.origin}${callback.pathname.slice(0, -'callback'.length)}authorize?${query}${query ? '&' : ''}hop=1`;
}

const secureCookie = (redirectUri: string) => new URL(redirectUri).protocol === 'https:';

function page(reply: FastifyReply, status: number, title: string, body: string, formAction = "'none'") {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('Content-Security-Policy', `default-src 'none'; script-src 'unsafe-inline'; form-action ${formAction}`)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>\n`,
    );
}

/**
 * Single sign-on with OpenID Connect: `authorize` sends the browser to the provider (authorization code
 * with PKCE), `callback` takes the code back, validates the ID token and answers with a page holding the tokens: as
 * JSON for the dashboard (`#checkbridge-tokens`, also posted to the opener), or posted to the CLI's loopback port.
 * The callback is taken only from the browser that started the sign-in (its binding cookie, oidc-binding.ts).
 */
export function registerOidcRoutes(app: FastifyInstance, deps: V2ApiDeps): void {
  const flows = new OidcFlows(deps.clock);
  registerAuthorizeRoute(app, deps, flows);
  registerCallbackRoute(app, deps, flows);
}

/** `authorize`: picks the provider, then sends the browser there with a fresh flow and its binding cookie. */
function registerAuthorizeRoute(app: FastifyInstance, deps: V2ApiDeps, flows: OidcFlows): void {
  app.get(`${OIDC}/authorize`, async (request, reply) => {
    const query = request.query as { provider?: string; return_to?: string };
    const oidc = listProviders(deps.store.resources).filter((p) => p.type === 'oidc');
    const provider = typeof query.provider === 'string' ? oidc.find((p) => p.metadata.name === query.provider) : oidc.length === 1 ? oidc[0] : undefined;
    if (!provider)
      return fail(
        reply,
        typeof query.provider === 'string' || oidc.length === 0 ? 'notFound' : 'invalid',
        typeof query.provider === 'string' || oidc.length === 0 ? 'no such OIDC provider' : 'several OIDC providers: choose one with ?provider=',
      );
    const returnTo = query.return_to === undefined ? null : loopback(String(query.return_to));
    if (query.return_to !== undefined && !returnTo) return fail(reply, 'invalid', 'return_to must be an http URL on a loopback address with a port');
    const spec = provider.spec as { redirect_uri: string };
    // Without a configured redirect_uri, the address this listener answered on: never the client's Host header,
    // which would let a crafted link send the code elsewhere.
    const local = request.socket.localAddress ?? '127.0.0.1';
    const redirectUri = spec.redirect_uri || `${request.protocol}://${local.includes(':') ? `[${local}]` : local}:${request.socket.localPort}${CALLBACK_PATH}`;
    const hop = callbackHostHop(request, redirectUri);
    if (hop) return reply.header('Cache-Control', 'no-store').redirect(hop, 302);
    const binding = newBinding();
    let started: { url: URL; state: string };
    try {
      started = await authorizeUrl(provider, flows, redirectUri, returnTo, binding.hash);
    } catch (error) {
      if (error instanceof FlowsFull) return reply.code(429).header('Retry-After', '60').send({ message: error.message, code: 4 });
      deps.logger.warn({ provider: provider.metadata.name, reason: (error as Error).message }, 'OIDC discovery failed');
      return fail(reply, 'internal', 'the identity provider could not be reached');
    }
    const cookie = bindingCookie(started.state, binding.secret, new URL(redirectUri).pathname, secureCookie(redirectUri), FLOW_TTL_MS / 1000);
    return reply.header('Set-Cookie', cookie).header('Cache-Control', 'no-store').redirect(started.url.href, 302);
  });
}

/** `callback`: takes the code back from the browser that started the sign-in and answers with the tokens. */
function registerCallbackRoute(app: FastifyInstance, deps: V2ApiDeps, flows: OidcFlows): void {
  app.get(CALLBACK_PATH, async (request: FastifyRequest, reply) => {
    const query = request.query as { state?: string; error?: string; error_description?: string };
    const state = typeof query.state === 'string' ? query.state : null;
    // A valid state is not enough: the browser must be the one that started this sign-in (login CSRF). The binding is
    // checked first, so someone who learns the state cannot use up (cancel) the sign-in of the browser that holds it.
    const presented = state === null ? null : readCookie(request.headers.cookie, bindingCookieName(state));
    const flow = state === null ? 'unknown' : flows.take(state, (f) => bindingHolds(f.bindingHash, presented));
    if (flow === 'unknown') return page(reply, 400, 'Sign-in failed', '<p>Unknown or expired sign-in: start again.</p>');
    if ('refused' in flow) {
      deps.logger.warn({ provider: flow.refused }, 'OIDC callback refused: not the browser that started the sign-in');
      return page(
        reply,
        403,
        'Sign-in failed',
        '<p>This sign-in was not started in this browser (its sign-in cookie is missing or does not match): start again from the sign-in link.</p>',
      );
    }
    reply.header('Set-Cookie', clearedBindingCookie(state!, new URL(flow.redirectUri).pathname, secureCookie(flow.redirectUri)));
    const provider = getProvider(deps.store.resources, flow.provider);
    if (!provider) return page(reply, 401, 'Sign-in failed', '<p>The provider no longer exists.</p>');
    if (typeof query.error === 'string')
      return page(reply, 401, 'Sign-in failed', `<p>${escapeHtml(query.error)}: ${escapeHtml(String(query.error_description ?? ''))}</p>`);
    const callbackUrl = new URL(flow.redirectUri);
    callbackUrl.search = request.url.split('?')[1] ?? '';
    let identity;
    try {
      identity = await completeSignIn(provider, flow, callbackUrl, state!);
    } catch (error) {
      const reason = refusalReason(error);
      deps.logger.warn({ provider: provider.metadata.name, reason }, 'OIDC sign-in refused');
      return page(reply, 401, 'Sign-in failed', `<p>The sign-in was refused: ${escapeHtml(reason)}</p>`);
    }
    const user = recordExternalUser(deps.store.resources, deps.logger, provider, identity.name, identity.groups);
    if (!user) return page(reply, 401, 'Sign-in failed', '<p>This account may not sign in here.</p>');
    const tokens = await issueTokens(deps, String(user.username), user.groups as string[]);
    if (flow.returnTo) {
      const origin = new URL(flow.returnTo).origin;
      const inputs = Object.entries(tokens)
        .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(String(v))}">`)
        .join('');
      return page(
        reply,
        200,
        'Signed in',
        `<form id="checkbridge-return" method="post" action="${escapeHtml(flow.returnTo)}">${inputs}<button type="submit">Continue</button></form><script>document.getElementById('checkbridge-return').submit()</script>`,
        origin,
      );
    }
    return page(
      reply,
      200,
      'Signed in',
      `<p>Signed in as ${escapeHtml(String(user.username))}.</p><script type="application/json" id="checkbridge-tokens">${scriptJson(tokens)}</script><script>if (window.opener) window.opener.postMessage(JSON.parse(document.getElementById('checkbridge-tokens').textContent), location.origin)</script>`,
    );
  });
}
