// The ExternalProvider: a vault's key/value store read over HTTPS (the KV v1 and v2 HTTP API of HashiCorp Vault 1.x).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import type { Agent } from 'undici';
import type * as Undici from 'undici';
import { parseDuration } from '../time/index.js';
import { RateLimiter } from './rate-limiter.js';
import { SecretFailure } from './failure.js';
import type { VaultClientSpec } from './model.js';
import { checkServerIdentity, connectFailureText } from '../tls/index.js';
import { systemCas } from '../tls/index.js';

// The HTTP client is loaded by the first request: a daemon that never makes one never loads it.
const load = createRequire(import.meta.url);
const undici = () => load('undici') as typeof Undici;

/** Why a segment of a vault path is refused: each must name itself, never climb, skip or smuggle a separator. */
function segmentProblem(segment: string): string | null {
  if (segment === '') return 'an empty segment (//)';
  if (segment === '.' || segment === '..') return `a "${segment}" segment`;
  if (segment.includes('%')) return 'a percent-encoded character';
  if (segment.includes('\\')) return 'a backslash';
  if (/[\u0000-\u001f\u007f]/.test(segment)) return 'a control character';
  return null;
}

/** `path#field` (for example `secret/database#password`) as the URL path to read and the field to take. */
export function vaultPathOf(id: string, version: 'v1' | 'v2'): { path: string; field: string } {
  const hash = id.lastIndexOf('#');
  const path = hash < 0 ? '' : id.slice(0, hash).replace(/^\/+|\/+$/g, '');
  const field = hash < 0 ? '' : id.slice(hash + 1);
  if (path === '' || field === '') throw new SecretFailure(`the id ${JSON.stringify(id)} is not path#field`, false);
  // The read must stay under the id's mount: the vault token would be sent to whatever path this names.
  for (const segment of path.split('/')) {
    const problem = segmentProblem(segment);
    if (problem) throw new SecretFailure(`the id ${JSON.stringify(id)} is refused: its path has ${problem}`, false);
  }
  const segments = path.split('/').map(encodeURIComponent);
  if (version === 'v1') return { path: `/v1/${segments.join('/')}`, field };
  // KV v2 keeps the data under `<mount>/data/<path>`; ids name the secret as `vault kv get` does, without `data/`.
  if (segments.length < 2) throw new SecretFailure(`the id ${JSON.stringify(id)} needs <mount>/<path>#field for a KV v2 store`, false);
  return { path: `/v1/${segments[0]}/data/${segments.slice(1).join('/')}`, field };
}

/** The URL to request: refused unless the URL parser keeps `path` exactly as built (nothing normalised away). */
function vaultUrlOf(address: string, path: string): string {
  const base = address.replace(/\/+$/, '');
  const url = new URL(base + path);
  if (url.pathname !== new URL(base).pathname.replace(/\/+$/, '') + path)
    throw new SecretFailure(`the path ${path} does not stay under the vault address`, false);
  return url.href;
}

function readTlsFile(path: string | undefined, key: string): Buffer | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path);
  } catch (error) {
    throw new SecretFailure(`cannot read tls.${key} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, false);
  }
}

// Vault's client retries connection errors, 5xx and 429 (its retryablehttp policy); others are final answers.
const retryable = (status: number) => status >= 500 || status === 429;

/** One configured vault: its TLS agent, its rate limiter and its retry and timeout policy. */
export class VaultProvider {
  private agent: Agent | null = null;
  private readonly limiter: RateLimiter | null;
  private readonly timeoutMs: number;

  constructor(private readonly client: VaultClientSpec) {
    const limit = client.rate_limiter?.limit;
    this.limiter = typeof limit === 'number' && limit > 0 ? new RateLimiter(limit, client.rate_limiter?.burst ?? 1) : null;
    this.timeoutMs = parseDuration(client.timeout) ?? 60_000;
  }

  private dispatcher(): Agent {
    if (this.agent) return this.agent;
    const tls = this.client.tls ?? {};
    this.agent = new (undici().Agent)({
      connect: {
        // A configured CA is the only one trusted (as Vault's own client does); otherwise Node's and the system's.
        ca: readTlsFile(tls.ca_cert, 'ca_cert') ?? systemCas(),
        cert: readTlsFile(tls.client_cert, 'client_cert'),
        key: readTlsFile(tls.client_key, 'client_key'),
        ...(tls.cname ? { servername: tls.cname } : {}),
        minVersion: 'TLSv1.2',
        rejectUnauthorized: true,
        checkServerIdentity,
      },
    });
    return this.agent;
  }

  /** The field's value; a SecretFailure (never holding the value) otherwise. `timeout` bounds the whole call. */
  async get(id: string): Promise<string> {
    if (!this.client.address.startsWith('https://')) throw new SecretFailure('the vault works only over TLS (an https:// address)', false);
    const { path, field } = vaultPathOf(id, this.client.version);
    const url = vaultUrlOf(this.client.address, path);
    const deadline = Date.now() + this.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    try {
      for (let attempt = 0; ; attempt++) {
        const outcome = await this.attempt(url, field, deadline, timeout.signal).catch((error: unknown) => {
          if (timeout.signal.aborted) throw new SecretFailure(`the vault did not answer within the timeout (${this.client.timeout})`, true);
          throw error;
        });
        if (outcome.value !== undefined) return outcome.value;
        const failure = outcome.failure!;
        if (!failure.retry || attempt >= this.client.max_retries) throw failure.error;
        const pause = Math.min(1000, 100 * 2 ** attempt);
        if (Date.now() + pause >= deadline)
          throw new SecretFailure(`the vault did not answer within the timeout (${this.client.timeout}); last: ${failure.error.reason}`, true);
        await sleep(pause, undefined, { signal: timeout.signal }).catch(() => undefined);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async attempt(
    url: string,
    field: string,
    deadline: number,
    signal: AbortSignal,
  ): Promise<{ value?: string; failure?: { error: SecretFailure; retry: boolean } }> {
    if (this.limiter) {
      const wait = this.limiter.reserve(deadline - Date.now());
      if (wait === null)
        throw new SecretFailure(
          `rate limit exceeded (rate_limiter limit ${this.client.rate_limiter?.limit}/s, burst ${this.client.rate_limiter?.burst ?? 1})`,
          false,
        );
      if (wait > 0) await sleep(wait, undefined, { signal });
    }
    const dispatcher = this.dispatcher();
    let response;
    try {
      response = await undici().request(url, {
        method: 'GET',
        headers: { 'x-vault-token': this.client.token, accept: 'application/json' },
        dispatcher,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      return { failure: { error: new SecretFailure(`the vault is unreachable: ${connectFailureText(error)}`, true), retry: true } };
    }
    const text = await response.body.text();
    const status = response.statusCode;
    if (status === 404) return { failure: { error: new SecretFailure('no such path in the vault', false), retry: false } };
    if (status === 403) return { failure: { error: new SecretFailure('the vault refused the token (403 permission denied)', false), retry: false } };
    if (status !== 200) return { failure: { error: new SecretFailure(`the vault answered ${status}`, retryable(status)), retry: retryable(status) } };
    let body: { data?: { data?: unknown } | null } | null;
    try {
      body = JSON.parse(text);
    } catch {
      return { failure: { error: new SecretFailure('the vault answered with a body that is not JSON', true), retry: true } };
    }
    const data = (this.client.version === 'v2' ? body?.data?.data : body?.data) as Record<string, unknown> | null | undefined;
    if (data === null || typeof data !== 'object' || !Object.hasOwn(data, field))
      return { failure: { error: new SecretFailure(`the vault has no field ${JSON.stringify(field)} at that path`, false), retry: false } };
    const value: unknown = data[field];
    return { value: typeof value === 'string' ? value : JSON.stringify(value) };
  }

  close(): void {
    void this.agent?.close();
    this.agent = null;
  }
}
