// The one redaction policy on every JSON body an HTTP server sends (the APIs and the client's HTTP socket alike).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactOutput } from '../config/index.js';

const exactBodies = new WeakSet<FastifyRequest>();

/** Lets this one response through as it is: only `/settings?redacted=false`, which sits behind credentials. */
export function unredacted<T>(request: FastifyRequest, body: T): T {
  exactBodies.add(request);
  return body;
}

/**
 * Every JSON body the server sends goes through the one redaction policy, so no route can forget it.
 * `exempt` lists route URLs whose bodies must stay exact (the v2 token routes).
 */
export function registerRedaction(app: FastifyInstance, exempt: readonly string[] = []): void {
  const skip = new Set(exempt);
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    done(null, exactBodies.has(request) || skip.has(request.routeOptions.url ?? '') ? payload : redactOutput(payload));
  });
}
