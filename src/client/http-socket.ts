import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Settings } from '../config/index.js';
import { redact } from '../config/index.js';
import { registerRedaction, unredacted, lazySchemaController } from '../http/index.js';
import type { ResultIntake } from '../execute/index.js';
import { prepareResult, EntityLimitError } from '../legacy/index.js';
import { rubyInspect } from '../tokens/index.js';
import { LEGACY_VERSION } from '../legacy-version.js';
import { nestedTooDeep, DEPTH_MESSAGE } from '../json-depth.js';
import { MAX_PARAM_LENGTH } from '../name-limits.js';
import { httpsOption, type ListenerHttps } from '../tls/index.js';
import type { TransportInfo } from '../transport/index.js';
import type { ReadClock } from '../schedule/index.js';

export interface HttpSocketDeps {
  readonly settings: () => Settings;
  readonly intake: ResultIntake;
  readonly clock: ReadClock;
  /** HTTPS (and mutual TLS) for this listener; plain HTTP without. */
  readonly https?: ListenerHttps | null;
  /** The transport's state for /info; the in-process bus when absent. */
  readonly transport?: () => Promise<TransportInfo>;
}

const ENDPOINTS = {
  '/info': { help: 'Sensu client information', methods: ['GET'] },
  '/results': { help: 'Send check JSON results here', methods: ['POST'] },
  '/settings': { help: 'Get redacted Sensu settings (requires basic auth). Use ?redacted=false if you want the setting unredacted.', methods: ['GET'] },
  '/brew': { help: 'Ask Sensu to brew a cup of joe (try it!)', methods: ['GET'] },
  '/events': { help: 'Create an ad hoc test event (v2 agent API)', methods: ['POST'] },
} as const;

type HttpConfig = { user?: string; password?: string; protect_all_endpoints?: boolean };

function authorized(request: FastifyRequest, config: HttpConfig): boolean {
  if (typeof config.user !== 'string' || typeof config.password !== 'string') return false;
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':'); // the first colon only: legacy never matched a password holding one
  return colon >= 0 && decoded.slice(0, colon) === config.user && decoded.slice(colon + 1) === config.password;
}

function unauthorized(reply: FastifyReply) {
  return reply
    .code(401)
    .header('WWW-Authenticate', 'Basic realm="Sensu Client Restricted Area"')
    .send({ response: 'You must be authenticated using your http_options user and password settings' });
}

/** The agent's HTTP socket (an invalid result is a 400 with the reason, where legacy answered 500). */
export function buildHttpSocket(deps: HttpSocketDeps): FastifyInstance {
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    schemaController: lazySchemaController,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    ...httpsOption(deps.https),
  });
  registerRedaction(app);
  const config = () => (deps.settings().client.http_socket ?? {}) as HttpConfig;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const submit = async (request: FastifyRequest, reply: FastifyReply, toResults: (value: unknown) => unknown[]) => {
    const type = String(request.headers['content-type'] ?? '');
    const body = String(request.body ?? '');
    if (!type.includes('application/json') || body === '') return reply.code(415).send({ response: 'Invalid content type' });
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return reply.code(400).send({ response: 'Failed to parse JSON body' });
    }
    if (nestedTooDeep(value)) return reply.code(400).send({ response: DEPTH_MESSAGE });
    const now = Math.floor(deps.clock.now() / 1000);
    const client = deps.settings().client;
    const prepared = [];
    for (const item of toResults(value)) {
      const result = prepareResult(item, now);
      if (!result.ok) return reply.code(400).send({ response: result.message });
      prepared.push(result.check);
    }
    try {
      for (const check of prepared) {
        await deps.intake.submit({
          client: String(client.name),
          check: { ...check, issued: now },
          ...(typeof client.signature === 'string' ? { signature: client.signature } : {}),
        });
      }
    } catch (error) {
      if (error instanceof EntityLimitError) return reply.code(error.httpStatus).send({ response: error.message });
      throw error;
    }
    return reply.code(202).send({ response: 'ok' });
  };

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const known = ENDPOINTS[path as keyof typeof ENDPOINTS];
    if (!known) return reply.code(404).send({ endpoints: ENDPOINTS });
    if (!(known.methods as readonly string[]).includes(request.method)) {
      return reply.code(405).send({ response: `Valid methods for this endpoint: ${rubyInspect([...known.methods])}` });
    }
    if (path === '/settings' || (config().protect_all_endpoints === true && path !== '/brew')) {
      if (!authorized(request, config())) return unauthorized(reply);
    }
  });

  app.get('/info', async () => ({
    sensu: { version: LEGACY_VERSION },
    transport: deps.transport ? await deps.transport() : { name: 'in-process', connected: true },
  }));
  app.get('/brew', async (_req, reply) => reply.code(418).send({ response: "I'm a teapot!" }));
  app.get('/settings', async (request) => {
    const raw = deps.settings().raw;
    return /redacted=false/i.test(request.url.split('?')[1] ?? '') ? unredacted(request, raw) : redact(raw);
  });
  app.post('/results', (request, reply) => submit(request, reply, (value) => (Array.isArray(value) ? value : [value])));
  // {check: {metadata: {name}, status, output, handlers}} becomes a result of the local client.
  app.post('/events', (request, reply) =>
    submit(request, reply, (value) => {
      const check = ((value ?? {}) as { check?: Record<string, unknown> }).check ?? {};
      const { metadata, ...rest } = check as { metadata?: { name?: unknown } };
      return [{ ...rest, name: metadata?.name }];
    }),
  );
  return app;
}
