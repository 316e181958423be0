import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { CheckbridgeError } from '../errors.js';
import { trustedCas } from '../tls/index.js';
import { checkServerIdentity } from '../tls/index.js';

export interface BrokerTls {
  readonly options: Pick<ConnectionOptions, 'rejectUnauthorized' | 'ca' | 'checkServerIdentity' | 'cert' | 'key'>;
  /** The certificate is not verified (`insecure: true`). */
  readonly insecure: boolean;
}

/**
 * TLS to a broker from its `ssl`/`tls` hash (`where` names it in errors): a client certificate from
 * `cert_chain_file` and `private_key_file` (legacy's EventMachine keys); the broker's certificate must chain to
 * Node's and the system's CAs or `trusted_ca_file`, and name the host among its SANs; `insecure: true` turns that off.
 */
export function brokerTls(hash: Record<string, unknown>, where: string): BrokerTls {
  const refuse = (detail: string) => new CheckbridgeError('CB_CONFIG_REFUSED', `${where}.${detail}`);
  const read = (key: string, load: (path: string) => unknown) => {
    const path = hash[key];
    if (path === undefined) return undefined;
    if (typeof path !== 'string' || path === '') throw refuse(`${key} must be the path of a PEM file`);
    try {
      return load(path);
    } catch (error) {
      throw refuse(`${key}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  };
  const cert = read('cert_chain_file', (path) => readFileSync(path)) as Buffer | undefined;
  const key = read('private_key_file', (path) => readFileSync(path)) as Buffer | undefined;
  const client = { ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
  const insecure = hash.insecure;
  if (insecure !== undefined && typeof insecure !== 'boolean') throw refuse(`insecure must be true or false, not ${JSON.stringify(insecure)}`);
  if (insecure === true) return { options: { ...client, rejectUnauthorized: false }, insecure: true };
  const ca = (read('trusted_ca_file', (path) => trustedCas(path)) as string[] | undefined) ?? trustedCas();
  return { options: { ...client, rejectUnauthorized: true, ca, checkServerIdentity }, insecure: false };
}

/** The warning an unverified broker connection logs once, at start. */
export const INSECURE_TLS_WARNING =
  "TLS to the broker does not verify its certificate (insecure: true): anyone between here and the broker can read and change what travels, the broker's password included";
