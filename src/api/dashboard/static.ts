import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
]);

// The page talks only to its own origin; uPlot sets inline styles.
const CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'";

export const DEFAULT_WEB_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../web');

interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

function readAssets(root: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const dir = join(root, 'assets');
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) assets.set(name, { body: readFileSync(join(dir, name)), type: TYPES.get(extname(name)) ?? 'application/octet-stream' });
  return assets;
}

/** The built front end, read once at start: `/` is the page, `/assets/:file` its hashed bundles (cached for good). */
export function registerStatic(app: FastifyInstance, root: string): void {
  const indexPath = join(root, 'index.html');
  const index = existsSync(indexPath) ? readFileSync(indexPath) : null;
  const assets = readAssets(root);
  const send = (reply: FastifyReply, asset: Asset, cache: string) =>
    reply
      .header('Content-Type', asset.type)
      .header('Cache-Control', cache)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', CSP)
      .send(asset.body);
  app.get('/', (_request, reply) => {
    if (!index) return reply.code(404).type('text/plain; charset=utf-8').send('the dashboard is not built: run npm run build\n');
    return send(reply, { body: index, type: TYPES.get('.html')! }, 'no-cache');
  });
  app.get('/assets/:file', (request, reply) => {
    const asset = assets.get((request.params as { file: string }).file);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('not found\n');
    return send(reply, asset, 'public, max-age=31536000, immutable');
  });
}
