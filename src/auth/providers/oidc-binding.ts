import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// A sign-in's `state` alone can be handed to someone else's browser (login CSRF): the browser that started the
// sign-in also holds a secret in a cookie, and the callback is taken only with it.

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A new binding: the secret the browser's cookie carries, and the hash of it the flow keeps. */
export function newBinding(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: digest(secret).toString('base64url') };
}

/** The cookie of one sign-in (several may be under way in one browser), named from its `state`. */
export const bindingCookieName = (state: string) => `checkbridge_oidc_${digest(state).toString('hex').slice(0, 16)}`;

/**
 * Set-Cookie for the binding: HttpOnly (no script reads it), SameSite=Lax (sent on the provider's top-level redirect
 * back, never on a cross-site subrequest), for the callback's path only, as long as the flow lives.
 */
export function bindingCookie(state: string, secret: string, callbackPath: string, secure: boolean, maxAgeS: number): string {
  return `${bindingCookieName(state)}=${secret}; Path=${callbackPath}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the binding once its callback was answered. */
export const clearedBindingCookie = (state: string, callbackPath: string, secure: boolean) => bindingCookie(state, '', callbackPath, secure, 0);

/** One cookie's value from a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Whether the browser presented the secret whose hash the flow kept (constant time). */
export function bindingHolds(hash: string, presented: string | null): boolean {
  if (!presented) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = digest(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
