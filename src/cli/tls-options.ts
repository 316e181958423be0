import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { CheckbridgeError } from '../errors.js';
import type { ListenerHttps } from '../tls/index.js';

export interface TlsFlags {
  tlsCertFile?: string;
  tlsKeyFile?: string;
  tlsCaFile?: string;
}

const FIELDS = ['cert_file', 'key_file', 'ca_file'] as const;

function configuredTls(where: string, raw: unknown): Partial<Record<(typeof FIELDS)[number], string>> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new CheckbridgeError('CB_CLI_USAGE', `${where} must be a hash of cert_file, key_file, ca_file`);
  const out: Partial<Record<(typeof FIELDS)[number], string>> = {};
  for (const field of FIELDS) {
    if (!Object.hasOwn(raw, field)) continue;
    const value = (raw as Record<string, unknown>)[field];
    if (typeof value !== 'string' || value === '') throw new CheckbridgeError('CB_CLI_USAGE', `${where}.${field} must be a file name`);
    out[field] = value;
  }
  return out;
}

/**
 * One HTTP listener's TLS: --tls-*-file beats CHECKBRIDGE_TLS_*_FILE beats the listener's `tls` settings block
 * (`where`, e.g. api.tls). Null serves plain HTTP; a CA file turns on client-certificate verification (mutual TLS).
 */
export function listenerHttps(what: string, where: string, raw: unknown, flags: TlsFlags, env = process.env): ListenerHttps | null {
  const configured = configuredTls(where, raw);
  const certFile = flags.tlsCertFile ?? env.CHECKBRIDGE_TLS_CERT_FILE ?? configured.cert_file;
  const keyFile = flags.tlsKeyFile ?? env.CHECKBRIDGE_TLS_KEY_FILE ?? configured.key_file;
  const caFile = flags.tlsCaFile ?? env.CHECKBRIDGE_TLS_CA_FILE ?? configured.ca_file;
  if (!certFile && !keyFile && !caFile) return null;
  if (!certFile || !keyFile)
    throw new CheckbridgeError(
      'CB_CLI_USAGE',
      `${what} TLS needs both a certificate and its key (${where}.cert_file and key_file, or --tls-cert-file and --tls-key-file)`,
    );
  const read = (file: string, field: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new CheckbridgeError('CB_LISTEN', `${what} TLS ${field} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  };
  const cert = read(certFile, 'cert_file');
  const key = read(keyFile, 'key_file');
  const ca = caFile ? read(caFile, 'ca_file') : undefined;
  try {
    createSecureContext({ cert, key, ...(ca ? { ca } : {}) });
  } catch (error) {
    throw new CheckbridgeError('CB_LISTEN', `${what} TLS: ${(error as Error).message} (${certFile}, ${keyFile}${caFile ? `, ${caFile}` : ''})`);
  }
  return { cert, key, ...(ca ? { ca } : {}), requestCert: ca !== undefined, rejectUnauthorized: ca !== undefined, minVersion: 'TLSv1.2' };
}
