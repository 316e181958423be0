// A throwaway certificate authority made with the openssl command: a server and client certificates it signed.
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function opensslMissing(): string | null {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
    return null;
  } catch {
    return 'the openssl command is not installed';
  }
}

export interface Issued {
  readonly cert: string;
  readonly key: string;
}

/** A CA in `dir`; `issue` signs a certificate whose common name is also among its subject alternative names. */
export function makeCa(dir: string): { ca: string; issue(name: string, altNames: string[]): Issued } {
  const ca = join(dir, 'ca.crt');
  const caKey = join(dir, 'ca.key');
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', caKey, '-out', ca, '-subj', '/CN=checkbridge-test-ca', '-days', '2']);
  return {
    ca,
    issue(name, altNames) {
      const key = join(dir, `${name}.key`);
      const csr = join(dir, `${name}.csr`);
      const cert = join(dir, `${name}.crt`);
      const ext = join(dir, `${name}.ext`);
      writeFileSync(ext, `subjectAltName=${[`DNS:${name}`, ...altNames].join(',')}\n`);
      run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${name}`]);
      run(['x509', '-req', '-in', csr, '-CA', ca, '-CAkey', caKey, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext]);
      chmodSync(key, 0o600);
      return { cert, key };
    },
  };
}
