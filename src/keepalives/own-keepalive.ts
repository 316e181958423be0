import type { Logger } from 'pino';
import { redact, type Settings } from '../config/index.js';
import type { StateStore } from '../store/index.js';
import type { EventDraft } from '../legacy/index.js';
import { LEGACY_VERSION } from '../legacy-version.js';
import { storeKeepalive } from './keepalives.js';

/** In one process, the client role's keepalive is received directly: its settings redacted, with version and timestamp. */
export function receiveOwnKeepalive(store: StateStore, intake: { submitRegistration(event: EventDraft): void }, logger: Logger): (s: Settings) => void {
  return (s) => {
    const local = s.client as Record<string, unknown>;
    const payload = {
      ...(redact(local, (local.redact as string[] | undefined) ?? undefined) as Record<string, unknown>),
      version: LEGACY_VERSION,
      timestamp: Math.floor(Date.now() / 1000),
    };
    storeKeepalive(store, s, payload, Date.now()).then(
      (outcome) => {
        if (!outcome.accepted) logger.warn({ client: local.name }, outcome.reason);
        else if (outcome.registration) {
          logger.info({ client: local.name, event: outcome.registration.id }, 'new client registration');
          intake.submitRegistration(outcome.registration);
        }
      },
      // A store out of reach (PostgreSQL cut off) must not end the daemon from a timer: the next keepalive tries again.
      (error: Error) => logger.warn({ client: local.name, err: error.message }, 'own keepalive not stored'),
    );
  };
}
