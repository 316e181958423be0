import { redact, legacyApiCredentialsOf } from '../../config/index.js';
import { unredacted } from '../../http/index.js';
import { bridgeSummary } from '../../bridge/index.js';
import type { TransportInfo } from '../../transport/index.js';
import { LEGACY_VERSION } from '../../legacy-version.js';
import type { AddRoute, LegacyApiDeps } from './deps.js';
import { sendList, forbid } from './http.js';
import { healthFailures } from './transport-health.js';

/** What the server is and how it is: /info, /health, /bridge and its dead letters, /settings. */
export function registerInfoRoutes(route: AddRoute, deps: LegacyApiDeps): void {
  const transport = deps.transport ?? (async (): Promise<TransportInfo> => ({ name: 'in-process', connected: true }));
  route('GET', '/info', async () => ({
    sensu: { version: LEGACY_VERSION },
    transport: await transport(),
    redis: { connected: true },
    servers: (await deps.servers?.()) ?? [],
    bridge: bridgeSummary(deps.bridge ?? null, deps.clock.now()),
  }));
  route('GET', '/bridge', (_req, reply) => bridgeSummary(deps.bridge ?? null, deps.clock.now()) ?? reply.code(404).send());
  route('GET', '/bridge/dead_letters', (req, reply) =>
    sendList(
      req,
      reply,
      (deps.bridge?.outbox.deadLetters() ?? []).map((d) => ({
        seq: d.seq,
        namespace: d.namespace,
        entity: d.entity,
        check: d.check,
        status: d.status,
        message: d.message,
        failed_at: d.failedAt,
        event: JSON.parse(d.body),
      })),
    ),
  );
  route('GET', '/health', async (req, reply) => {
    const failures = healthFailures(await transport(), (req.query ?? {}) as Record<string, unknown>);
    return failures.length === 0 ? reply.code(204).send() : reply.code(412).send(failures);
  });
  route('GET', '/settings', (req, reply) => {
    const settings = deps.settings().raw;
    if (!/redacted=false/i.test(req.url.split('?')[1] ?? '')) return redact(settings);
    // The whole settings (API keys, broker passwords) only to a caller who authenticated (the hook checked api.user
    // and api.password): with no credentials configured there is no such caller, whoever asks.
    if (!legacyApiCredentialsOf(deps.settings())) return forbid(reply, 'redacted=false needs api.user and api.password set and sent as basic auth');
    return unredacted(req, settings);
  });
}
