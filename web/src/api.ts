// Every request goes through the v2 login: a Bearer access token, refreshed with POST /auth/token.
interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_at: number;
}

const KEY = 'checkbridge.tokens';
export const DASH = '/api/checkbridge/v1';
let tokens: Tokens | null = read();
let onLogout: () => void = () => undefined;

function read(): Tokens | null {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Tokens | null;
  } catch {
    return null;
  }
}

function keep(next: Tokens | null): void {
  tokens = next;
  if (next) sessionStorage.setItem(KEY, JSON.stringify(next));
  else sessionStorage.removeItem(KEY);
}

export const loggedIn = () => tokens !== null;
export const whenLoggedOut = (listener: () => void) => void (onLogout = listener);

export async function login(user: string, password: string): Promise<string | null> {
  const basic = btoa(unescape(encodeURIComponent(`${user}:${password}`)));
  const response = await fetch('/auth', { headers: { authorization: `Basic ${basic}` } });
  if (response.status === 429) return 'Too many failed attempts: wait a minute and try again.';
  if (!response.ok) return 'Wrong user name or password.';
  keep((await response.json()) as Tokens);
  return null;
}

export async function logout(): Promise<void> {
  const current = tokens;
  keep(null);
  if (current) {
    await fetch('/auth/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${current.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: current.refresh_token }),
    }).catch(() => undefined);
  }
  onLogout();
}

let refreshing: Promise<boolean> | null = null;
function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    const current = tokens;
    if (!current) return false;
    const response = await fetch('/auth/token', {
      method: 'POST',
      headers: { authorization: `Bearer ${current.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: current.refresh_token }),
    }).catch(() => null);
    if (!response?.ok) return false;
    keep((await response.json()) as Tokens);
    return true;
  })().finally(() => (refreshing = null));
  return refreshing;
}

/** A request with the access token; refreshed once before it expires or after a 401, logged out when that fails. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  if (tokens && tokens.expires_at - Date.now() / 1000 < 30) await refresh();
  const send = () =>
    fetch(path, {
      ...init,
      headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}), authorization: `Bearer ${tokens?.access_token ?? ''}` },
    });
  let response = await send();
  if (response.status === 401 && (await refresh())) response = await send();
  if (response.status === 401) {
    keep(null);
    onLogout();
  }
  return response;
}

export class ApiError extends Error {}

export async function getJson<T>(path: string): Promise<T> {
  const response = await request(path);
  if (!response.ok) throw new ApiError(await problem(response));
  return (await response.json()) as T;
}

async function problem(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    return (JSON.parse(text) as { message?: string }).message ?? `HTTP ${response.status}`;
  } catch {
    return text.trim() || `HTTP ${response.status}`;
  }
}

/** An action: resolves to null when it worked, or to the server's message. */
export async function act(method: 'POST' | 'DELETE' | 'PUT', path: string, body?: unknown): Promise<string | null> {
  const response = await request(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return response.ok ? null : problem(response);
}

/** Server-sent change notices over fetch (so the token goes in a header); reconnects until stopped. */
export function subscribe(onChange: () => void, onState: (live: boolean) => void): () => void {
  const controller = new AbortController();
  let stopped = false;
  const run = async () => {
    while (!stopped) {
      try {
        const response = await request(`${DASH}/stream`, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
        if (!response.ok || !response.body) throw new Error('stream refused');
        onState(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          const messages = buffer.split('\n\n');
          buffer = messages.pop() ?? '';
          if (messages.some((m) => m.split('\n').includes('event: change'))) onChange();
        }
      } catch {
        /* reconnect below */
      }
      onState(false);
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller.abort();
  };
}

export const legacy = (path: string) => `${DASH}/legacy${path}`;
export const segment = (name: string) => encodeURIComponent(name);
