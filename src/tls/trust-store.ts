import { readFileSync } from 'node:fs';
import { systemCas } from './system-cas.js';

/**
 * What a TLS client trusts: Node's CAs, the system's, and `caFile` when configured. Passing `ca` to Node replaces its
 * own list, so all three are given. A `caFile` that cannot be read throws (the caller names the setting).
 */
export function trustedCas(caFile?: string): string[] {
  return [...systemCas(), ...(caFile ? [readFileSync(caFile, 'utf8')] : [])];
}
