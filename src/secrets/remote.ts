import type { Logger } from 'pino';

/** How a client that would run a check is connected to the server. */
export interface ClientConnection {
  /** The in-process client role of this daemon: secrets never leave the process. */
  readonly local: boolean;
  /** The transport is TLS. */
  readonly tls: boolean;
  /** The client presented a certificate the server verified (mutual TLS). */
  readonly verifiedClientCertificate: boolean;
}

export type SecretsDelivery = { readonly send: true } | { readonly send: false; readonly reason: string };

/**
 * The rule for remote clients (spec §1.8): the server resolves, and sends the values with a check request only to a
 * client connected with mutual TLS; any other client runs the check without them (its `secrets` variables unset).
 */
export function secretsDeliveryFor(connection: ClientConnection): SecretsDelivery {
  if (connection.local) return { send: true };
  if (!connection.tls) return { send: false, reason: 'the client is not connected over TLS: secrets are sent only over mutual TLS' };
  if (!connection.verifiedClientCertificate) return { send: false, reason: 'the client did not present a verified certificate: secrets are sent only over mutual TLS' };
  return { send: true };
}

/** Logs why a check runs without its secrets once per check, not on every execution. */
export class WithheldSecretsLog {
  private readonly told = new Set<string>();

  constructor(private readonly logger: Logger) {}

  note(check: string, client: string, reason: string): boolean {
    if (this.told.has(check)) return false;
    this.told.add(check);
    this.logger.warn({ check, client, reason }, 'check runs without its secrets');
    return true;
  }
}
