import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { PREFIX } from './deps.js';

const THROTTLE_MS = 250;
const HEARTBEAT_MS = 15_000;

/**
 * Server-sent events telling open pages that something changed (a processed event, an action taken here); pages then
 * refetch what they show. Returns the function that announces a change.
 */
export function registerStream(app: FastifyInstance): () => void {
  const open = new Set<ServerResponse>();
  let generation = 0;
  let pending: NodeJS.Timeout | null = null;
  const flush = () => {
    pending = null;
    for (const response of open) response.write(`event: change\ndata: {"generation":${generation}}\n\n`);
  };
  const changed = () => {
    generation += 1;
    pending ??= setTimeout(flush, THROTTLE_MS);
  };
  const heartbeat = setInterval(() => {
    for (const response of open) response.write(': heartbeat\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    if (pending) clearTimeout(pending);
    for (const response of open) response.end();
    open.clear();
  });
  app.get(`${PREFIX}/stream`, (request, reply) => {
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    response.write(`retry: 2000\nevent: hello\ndata: {"generation":${generation}}\n\n`);
    open.add(response);
    request.raw.on('close', () => open.delete(response));
  });
  return changed;
}
