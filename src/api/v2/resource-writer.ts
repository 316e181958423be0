import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Json } from '../../json.js';

/** How a stored write is answered: PUT and POST 201 with no body, PATCH 200 with the resource. */
type Respond = (reply: FastifyReply, namespace: string, name: string) => unknown;
export const created: Respond = (reply) => reply.code(201).type('application/json').send();

/** A kind's stored resources and its PUT handler: what routes that change one resource in place go through. */
export interface ResourceWriter {
  readonly get: (namespace: string, name: string) => Json | null;
  readonly put: (respond: Respond) => (request: FastifyRequest, reply: FastifyReply) => unknown;
}
