// The CAs an outgoing TLS client trusts by default: Node's bundled list plus the system's store (its local additions).
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

// Where distributions keep the system's trusted CAs (Node's own list is Mozilla's, which misses local additions).
const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem', '/etc/ssl/ca-bundle.pem'];

/** The system bundle: `SSL_CERT_FILE` when set (as OpenSSL reads it), else the first distribution bundle found. */
function systemBundle(): string[] {
  const override = process.env.SSL_CERT_FILE;
  for (const path of override ? [override] : SYSTEM_BUNDLES) {
    try {
      return [readFileSync(path, 'utf8')];
    } catch {
      /* try the next */
    }
  }
  return [];
}

/** Node's bundled CAs and the system's, for a TLS client's `ca` (which otherwise replaces them all). */
export function systemCas(): string[] {
  return [...rootCertificates, ...systemBundle()];
}
