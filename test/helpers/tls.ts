// A throwaway certificate authority made with openssl, and server certificates it signs (127.0.0.1 and localhost).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCa {
  readonly dir: string;
  /** The CA certificate (PEM file): what a client configures as trusted. */
  readonly caFile: string;
  readonly caPem: string;
  /**
   * A certificate for `names` signed by this CA: a server's, or with `client` a client's (for mutual TLS);
   * with `commonNameOnly` the first name is only its common name, without subject alternative names.
   */
  issue(names?: readonly string[], options?: { client?: boolean; commonNameOnly?: boolean }): { cert: string; key: string; certFile: string; keyFile: string };
  remove(): void;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

export function makeTestCa(name = 'checkbridge test CA'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'checkbridge-ca-'));
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  let serial = 0;
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    issue(names = ['127.0.0.1', 'localhost'], options = {}) {
      const base = `${options.client ? 'client' : 'server'}${++serial}`;
      const san = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
      const usage = options.client ? 'clientAuth' : 'serverAuth';
      writeFileSync(
        join(dir, `${base}.ext`),
        `${options.commonNameOnly ? '' : `subjectAltName=${san}\n`}basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=${usage}\n`,
      );
      openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${names[0]}`]);
      openssl(dir, [
        'x509',
        '-req',
        '-in',
        `${base}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${base}.pem`,
        '-days',
        '2',
        '-extfile',
        `${base}.ext`,
      ]);
      return {
        cert: readFileSync(join(dir, `${base}.pem`), 'utf8'),
        key: readFileSync(join(dir, `${base}.key`), 'utf8'),
        certFile: join(dir, `${base}.pem`),
        keyFile: join(dir, `${base}.key`),
      };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
