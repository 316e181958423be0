/** How a client or agent that would run a check is connected to the server. */
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
 * The rule for remote clients and agents: the server resolves, and sends the values with a check
 * request only over mutual TLS; any other runs the check without them (its `secrets` variables unset).
 */
export function secretsDeliveryFor(connection: ClientConnection): SecretsDelivery {
  if (connection.local) return { send: true };
  if (!connection.tls) return { send: false, reason: 'not connected over TLS: secrets are sent only over mutual TLS' };
  if (!connection.verifiedClientCertificate) return { send: false, reason: 'no verified client certificate: secrets are sent only over mutual TLS' };
  return { send: true };
}
