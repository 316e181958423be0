import { CheckbridgeError } from '../errors.js';
import { errorBodyMessage } from '../v2/index.js';
import { API_KEY, secretFlagWarning, resolveSecret } from './secret-options.js';

export interface ApiTarget {
  readonly url: string;
  readonly authorization: string;
}

interface ClientFlags {
  url?: string;
  apiKey?: string;
  apiKeyFile?: string;
}

/**
 * Where and how to call the v2 API: --url / CHECKBRIDGE_URL, then --api-key, --api-key-file, CHECKBRIDGE_API_KEY or
 * CHECKBRIDGE_API_KEY_FILE, else a user's token.
 */
export async function apiTarget(flags: ClientFlags, env = process.env): Promise<ApiTarget> {
  const url = (flags.url ?? env.CHECKBRIDGE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const warning = secretFlagWarning(API_KEY, flags.apiKey);
  if (warning) process.stderr.write(`checkbridge: warning: ${warning}\n`);
  const key = resolveSecret(API_KEY, { value: flags.apiKey, file: flags.apiKeyFile }, env);
  if (key) return { url, authorization: `Key ${key}` };
  const user = env.CHECKBRIDGE_USERNAME;
  const password = env.CHECKBRIDGE_PASSWORD;
  if (!user || password === undefined)
    throw new CheckbridgeError(
      'CB_CLI_USAGE',
      'no credentials: pass --api-key-file (or CHECKBRIDGE_API_KEY_FILE, CHECKBRIDGE_API_KEY), or set CHECKBRIDGE_USERNAME and CHECKBRIDGE_PASSWORD',
    );
  const reply = await request({ url, authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') }, 'GET', '/auth');
  if (reply.status === 401)
    throw new CheckbridgeError('CB_RUNTIME', `${url}/auth: 401: the user name or password was refused: check CHECKBRIDGE_USERNAME and CHECKBRIDGE_PASSWORD`);
  if (reply.status !== 200) throw new CheckbridgeError('CB_RUNTIME', `${url}/auth: ${reply.status} ${reply.text.trim()}`);
  return { url, authorization: `Bearer ${(JSON.parse(reply.text) as { access_token: string }).access_token}` };
}

export async function request(target: ApiTarget, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; headers: Headers }> {
  let response: Response;
  try {
    response = await fetch(target.url + path, {
      method,
      headers: { authorization: target.authorization, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new CheckbridgeError(
      'CB_RUNTIME',
      `${target.url}: ${reason}: cannot reach the v2 API: check --url (or CHECKBRIDGE_URL) and that \`checkbridge run\` serves the v2 API there (--v2-port, default 8080)`,
    );
  }
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** The API's message when the body is {"message","code"}, else the raw body, else the status (as sensuctl shows them). */
export function apiError(reply: { status: number; text: string }): CheckbridgeError {
  return new CheckbridgeError('CB_RUNTIME', apiMessage(reply));
}

export function apiMessage(reply: { status: number; text: string }): string {
  const message = errorBodyMessage(reply.text) || `the API returned: ${reply.status}`;
  // A refused credential says which ones were used, not only that they failed.
  return reply.status === 401
    ? `${message} (401: the credentials were refused: check the API key from --api-key-file, CHECKBRIDGE_API_KEY_FILE or CHECKBRIDGE_API_KEY, or CHECKBRIDGE_USERNAME and CHECKBRIDGE_PASSWORD)`
    : message;
}
