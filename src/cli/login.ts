import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { CheckbridgeError } from '../errors.js';

const AUTHORIZE = '/api/enterprise/authentication/v2/oidc/authorize';
// Long enough to type a password and approve; a forgotten login does not wait forever.
const WAIT_MS = 5 * 60_000;

/** Opens a URL with the desktop's opener; a headless machine simply has none (the URL is printed anyway). */
function openBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

/** The tokens the callback page posts to our loopback port. */
function waitForTokens(): Promise<{ port: number; tokens: Promise<Record<string, string>> }> {
  return new Promise((ready, reject) => {
    let deliver!: (tokens: Record<string, string>) => void;
    const tokens = new Promise<Record<string, string>>((resolve) => (deliver = resolve));
    const server = createServer((request, response) => {
      if (request.method !== 'POST' || request.url !== '/callback') return void response.writeHead(404).end();
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk.length + body.length < 64_000 ? chunk : ''));
      request.on('end', () => {
        const fields = Object.fromEntries(new URLSearchParams(body));
        if (!fields.access_token || !fields.refresh_token) return void response.writeHead(400).end('missing tokens\n');
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><p>Signed in: you may close this window.</p>\n');
        server.close();
        deliver(fields);
      });
    });
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => ready({ port: (server.address() as { port: number }).port, tokens }));
    setTimeout(() => server.close(), WAIT_MS).unref();
  });
}

/** `login --oidc`: single sign-on in a browser, the tokens handed back to a loopback port, then printed as JSON. */
export function registerLogin(program: Command): void {
  program
    .command('login')
    .description('sign in to a v2 API through an OpenID Connect provider and print the access and refresh tokens (JSON)')
    .requiredOption('--oidc', 'single sign-on with OpenID Connect (authorization code with PKCE)')
    .option('--provider <name>', 'the OIDC provider, when the API has several')
    .option('--no-browser', 'only print the sign-in URL')
    .action(async (flags: { provider?: string; browser: boolean }, command: Command) => {
      const base = ((command.optsWithGlobals() as { url?: string }).url ?? process.env.CHECKBRIDGE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
      const { port, tokens } = await waitForTokens();
      const query = new URLSearchParams({ return_to: `http://127.0.0.1:${port}/callback`, ...(flags.provider ? { provider: flags.provider } : {}) });
      const url = `${base}${AUTHORIZE}?${query}`;
      process.stderr.write(`Sign in at: ${url}\n`);
      if (flags.browser) openBrowser(url);
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new CheckbridgeError('CB_RUNTIME', 'no sign-in within 5 minutes')), WAIT_MS).unref(),
      );
      const { access_token, refresh_token, expires_at } = await Promise.race([tokens, timeout]);
      process.stdout.write(JSON.stringify({ access_token, refresh_token, expires_at: Number(expires_at) }) + '\n');
    });
}
