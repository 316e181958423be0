import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

// Where distributions keep the system's trusted CAs (Node's own list is Mozilla's, which misses local additions);
// the same places the asset downloads read (src/assets/fetch.ts).
const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem', '/etc/ssl/ca-bundle.pem'];

/** The first system CA bundle found, as PEM text (none: an empty list). */
export function systemCaBundle(): string[] {
  for (const path of SYSTEM_BUNDLES) {
    try {
      return [readFileSync(path, 'utf8')];
    } catch {
      /* try the next */
    }
  }
  return [];
}

/**
 * What a TLS client trusts: Node's CAs, the system's, and `caFile` when configured. Passing `ca` to Node replaces its
 * own list, so all three are given. A `caFile` that cannot be read throws (the caller names the setting).
 */
export function trustedCas(caFile?: string): string[] {
  return [...rootCertificates, ...systemCaBundle(), ...(caFile ? [readFileSync(caFile, 'utf8')] : [])];
}
