import type { ConnectionOptions } from 'node:tls';
import { CheckbridgeError } from '../errors.js';
import { trustedCas } from '../tls/trust-store.js';
import { checkServerIdentity } from '../tls/identity.js';

export interface BrokerTls {
  readonly options: Pick<ConnectionOptions, 'rejectUnauthorized' | 'ca' | 'checkServerIdentity'>;
  /** The certificate is not verified (`insecure: true`). */
  readonly insecure: boolean;
}

/**
 * TLS to a broker from its `ssl`/`tls` hash (`where` names it in errors): the certificate must chain to Node's and
 * the system's CAs or `trusted_ca_file`, and name the host among its SANs; `insecure: true` turns that off.
 */
export function brokerTls(hash: Record<string, unknown>, where: string): BrokerTls {
  const refuse = (detail: string) => new CheckbridgeError('CB_CONFIG_REFUSED', `${where}.${detail}`);
  const insecure = hash.insecure;
  if (insecure !== undefined && typeof insecure !== 'boolean') throw refuse(`insecure must be true or false, not ${JSON.stringify(insecure)}`);
  if (insecure === true) return { options: { rejectUnauthorized: false }, insecure: true };
  const caFile = hash.trusted_ca_file;
  if (caFile !== undefined && (typeof caFile !== 'string' || caFile === '')) throw refuse('trusted_ca_file must be the path of a PEM file');
  let ca: string[];
  try {
    ca = trustedCas(caFile);
  } catch (error) {
    throw refuse(`trusted_ca_file: cannot read ${String(caFile)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return { options: { rejectUnauthorized: true, ca, checkServerIdentity }, insecure: false };
}

/** The warning an unverified broker connection logs once, at start. */
export const INSECURE_TLS_WARNING = "TLS to the broker does not verify its certificate (insecure: true): anyone between here and the broker can read and change what travels, the broker's password included";
