import { createServer, type Server } from 'node:http';
import { generateKeyPair, exportJWK, importJWK, SignJWT, decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { freePort } from '../helpers/net.js';

export const CLIENT = { id: 'checkbridge', secret: 'oidc-client-secret-for-tests-9f2' };
/** The accounts the provider knows: their e-mail (the username claim) and groups. */
export const ACCOUNTS: Record<string, { email: string; groups: string[] }> = {
  dana: { email: 'dana@acme.org', groups: ['sre', 'dev'] },
  eve: { email: 'eve@acme.org', groups: [] },
};

/** How the next ID token is altered (then re-signed), to prove the relying party refuses it. */
export type Tamper = null | 'expired' | 'audience' | 'nonce' | 'foreign-key';

export interface OidcServer {
  readonly issuer: string;
  tamper: Tamper;
  close(): Promise<void>;
}

/**
 * npm's oidc-provider (a certified OpenID provider) on a free loopback port: one confidential client with PKCE
 * required, the library's own login and consent pages, our signing key so a test can forge a token it refuses.
 */
export async function startOidcProvider(redirectUri: string): Promise<OidcServer> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const foreign: JWK = { ...(await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey)), kid: 'test-key', alg: 'RS256' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: ACCOUNTS[id]?.email ?? `${id}@elsewhere.org`, groups: ACCOUNTS[id]?.groups ?? [] }),
    }),
    claims: { openid: ['sub'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'offline_access', 'email', 'groups'],
    // Claims in the ID token itself (not only from userinfo), as most providers configure for groups.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  const server: OidcServer & { http?: Server } = { issuer, tamper: null, close: async () => undefined };
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/token' || !server.tamper || typeof ctx.body?.id_token !== 'string') return;
    const claims = decodeJwt(ctx.body.id_token);
    const now = Math.floor(Date.now() / 1000);
    const changed =
      server.tamper === 'expired'
        ? { ...claims, iat: now - 7200, exp: now - 3600 }
        : server.tamper === 'audience'
          ? { ...claims, aud: 'someone-else' }
          : server.tamper === 'nonce'
            ? { ...claims, nonce: 'not-the-nonce' }
            : claims;
    const key = await importJWK(server.tamper === 'foreign-key' ? foreign : jwk, 'RS256');
    ctx.body = { ...ctx.body, id_token: await new SignJWT(changed).setProtectedHeader(decodeProtectedHeader(ctx.body.id_token) as { alg: string }).sign(key) };
  });
  const http = createServer(provider.callback());
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  server.close = () => new Promise((resolve) => (http.closeAllConnections(), http.close(() => resolve())));
  return server;
}

/**
 * A browser, as far as sign-in needs one: follows redirects, keeps cookies per origin, submits each form it meets.
 * `stopBefore`: a URL prefix it does not open (status 0), answering its URL and the cookies it would have sent there.
 */
export async function browse(
  start: string,
  login: string,
  options: { maxSteps?: number; stopBefore?: string } = {},
): Promise<{ status: number; url: string; html: string; cookie: string }> {
  const jars = new Map<string, Map<string, string>>();
  let url = start;
  let init: { method: string; body?: string } = { method: 'GET' };
  for (let step = 0; step < (options.maxSteps ?? 25); step++) {
    const origin = new URL(url).origin;
    const jar = jars.get(origin) ?? new Map<string, string>();
    jars.set(origin, jar);
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (options.stopBefore && url.startsWith(options.stopBefore)) return { status: 0, url, html: '', cookie };
    if (jar.size > 0) headers.cookie = cookie;
    if (init.body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url).href;
      init = { method: 'GET' };
      continue;
    }
    const html = await response.text();
    const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (!form || response.status !== 200) return { status: response.status, url, html, cookie };
    const fields = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input([^>]*)>/gi)) {
      const name = /name="([^"]*)"/.exec(input[1]!)?.[1];
      if (!name) continue;
      const value = /value="([^"]*)"/.exec(input[1]!)?.[1] ?? '';
      fields.set(
        name,
        name === 'login'
          ? login
          : name === 'password'
            ? 'any-password'
            : value.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))).replace(/&amp;/g, '&'),
      );
    }
    url = new URL(form[1]!.replace(/&amp;/g, '&'), url).href;
    init = { method: 'POST', body: fields.toString() };
  }
  throw new Error(`sign-in did not finish: last at ${url}`);
}
