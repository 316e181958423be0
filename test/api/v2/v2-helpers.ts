import { getJson, adminBasic } from '../../helpers/instance.js';

export type Reply = Awaited<ReturnType<typeof getJson>>;

/** An admin access token from GET /auth. */
export async function adminToken(v2: string): Promise<string> {
  const reply = await getJson(`${v2}/auth`, { headers: adminBasic });
  if (reply.status !== 200) throw new Error(`GET /auth: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.access_token as string;
}

/** A JSON request with an Authorization header. */
export function call(url: string, method: string, authorization: string | null, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return getJson(url, { method, headers, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });
}
