import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'ldapts';
import { freePort } from '../helpers/net.js';

const SLAPD = ['/usr/sbin/slapd', '/usr/local/sbin/slapd'].find((p) => existsSync(p));
const SLAPADD = ['/usr/sbin/slapadd', '/usr/local/sbin/slapadd'].find((p) => existsSync(p));
const SCHEMA = '/etc/ldap/schema';
const MODULES = '/usr/lib/ldap';

/** Why the LDAP tests cannot run here (false when they can); in CI a missing server fails instead of skipping. */
export function slapdSkipReason(): string | false {
  const reason =
    !SLAPD || !SLAPADD
      ? 'slapd is not installed (Debian: apt-get install slapd ldap-utils)'
      : !existsSync(join(SCHEMA, 'inetorgperson.schema'))
        ? `no OpenLDAP schema in ${SCHEMA}`
        : false;
  if (reason && process.env.CI === 'true') throw new Error(`${reason}: required in CI`);
  return reason;
}

export const BASE_DN = 'dc=acme,dc=org';
// The directory's root, only for tests that change the directory while it runs.
const ROOT_PASSWORD = 'root-secret-for-changes';
export const BINDER = { dn: `cn=binder,${BASE_DN}`, password: 'binder-secret-7' };
/** The directory's people: alice in one group, bob in two, carol in none (and an AD-style principal name). */
export const PEOPLE = {
  alice: { password: 'alice-ldap-1', groups: ['dev'] },
  bob: { password: 'bob-ldap-1', groups: ['dev', 'ops'] },
  carol: { password: 'carol-ldap-1', groups: [] as string[] },
};

export interface Slapd {
  readonly dir: string;
  /** Plain LDAP, also the StartTLS port. */
  readonly ldapPort: number;
  readonly ldapsPort: number;
  readonly caFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  stop(): Promise<void>;
  /** Starts again on the same ports and data (after stop). */
  start(): Promise<void>;
  /** Removes a person from the directory (as the directory's root, over plain LDAP). */
  removePerson(uid: keyof typeof PEOPLE): Promise<void>;
  /** Stops and removes everything. */
  close(): Promise<void>;
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.stdout}`);
}

/** A throwaway CA, a server certificate for 127.0.0.1/localhost, and a client certificate, made by openssl. */
function makeCertificates(dir: string): void {
  const ssl = (...args: string[]) => run('openssl', args, dir);
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=checkbridge test CA', '-keyout', 'ca-key.pem', '-out', 'ca.pem');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, cn] of [
    ['server', 'localhost'],
    ['client', 'checkbridge'],
  ]) {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${cn}`, '-keyout', `${name}-key.pem`, '-out', `${name}.csr`);
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca-key.pem',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
  }
}

// Active Directory's login attributes, so `ad` providers can be tried against OpenLDAP.
const AD_SCHEMA = `attributetype ( 1.3.6.1.4.1.55555.1.1 NAME 'userPrincipalName' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.2 NAME 'sAMAccountName' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.55555.2.1 NAME 'adAccount' AUXILIARY MAY ( userPrincipalName $ sAMAccountName ) )
`;

function directory(): string {
  const entries = [
    `dn: ${BASE_DN}\nobjectClass: dcObject\nobjectClass: organization\ndc: acme\no: Acme`,
    `dn: ou=people,${BASE_DN}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${BASE_DN}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ${BINDER.dn}\nobjectClass: person\ncn: binder\nsn: binder\nuserPassword: ${BINDER.password}`,
  ];
  for (const [uid, person] of Object.entries(PEOPLE)) {
    entries.push(
      `dn: uid=${uid},ou=people,${BASE_DN}\nobjectClass: inetOrgPerson\nobjectClass: adAccount\nuid: ${uid}\ncn: ${uid[0]!.toUpperCase()}${uid.slice(1)}\nsn: ${uid}\nsAMAccountName: ${uid}\nuserPrincipalName: ${uid}@acme.org\nuserPassword: ${person.password}`,
    );
  }
  for (const group of ['dev', 'ops', 'empty']) {
    const members = Object.entries(PEOPLE)
      .filter(([, p]) => p.groups.includes(group))
      .map(([uid]) => `member: uid=${uid},ou=people,${BASE_DN}`);
    // groupOfNames needs a member: the binder stands in for an empty group.
    entries.push(
      `dn: cn=${group},ou=groups,${BASE_DN}\nobjectClass: groupOfNames\ncn: ${group}\n${(members.length ? members : [`member: ${BINDER.dn}`]).join('\n')}`,
    );
  }
  return entries.join('\n\n') + '\n';
}

function config(dir: string): string {
  return `include ${SCHEMA}/core.schema
include ${SCHEMA}/cosine.schema
include ${SCHEMA}/inetorgperson.schema
include ${join(dir, 'ad.schema')}
pidfile ${join(dir, 'slapd.pid')}
argsfile ${join(dir, 'slapd.args')}
modulepath ${MODULES}
moduleload back_mdb
TLSCACertificateFile ${join(dir, 'ca.pem')}
TLSCertificateFile ${join(dir, 'server.pem')}
TLSCertificateKeyFile ${join(dir, 'server-key.pem')}
TLSVerifyClient demand
database mdb
maxsize 16777216
suffix "${BASE_DN}"
rootdn "cn=root,${BASE_DN}"
rootpw ${ROOT_PASSWORD}
directory ${join(dir, 'data')}
access to attrs=userPassword by anonymous auth by self read by * none
access to * by users read by anonymous auth by * none
`;
}

async function listening(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return true;
    await sleep(50);
  }
  return false;
}

/**
 * A real OpenLDAP slapd on free loopback ports (plain/StartTLS and LDAPS) over a private directory: a generated
 * slapd.conf, the directory loaded with slapadd, a throwaway CA. TLS connections must show a client certificate.
 */
export async function startSlapd(): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'checkbridge-slapd-'));
  mkdirSync(join(dir, 'data'));
  makeCertificates(dir);
  writeFileSync(join(dir, 'ad.schema'), AD_SCHEMA);
  writeFileSync(join(dir, 'slapd.conf'), config(dir));
  writeFileSync(join(dir, 'directory.ldif'), directory());
  run(SLAPADD!, ['-f', join(dir, 'slapd.conf'), '-l', join(dir, 'directory.ldif')], dir);
  const ldapPort = await freePort();
  const ldapsPort = await freePort();
  let proc: ChildProcess | null = null;
  let output = '';
  const start = async () => {
    output = '';
    // -d keeps slapd in the foreground, so the test owns the process and its end.
    proc = spawn(SLAPD!, ['-f', join(dir, 'slapd.conf'), '-h', `ldap://127.0.0.1:${ldapPort}/ ldaps://127.0.0.1:${ldapsPort}/`, '-d', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout!.on('data', (d) => (output += d));
    proc.stderr!.on('data', (d) => (output += d));
    if (!(await listening(ldapPort, 10_000)) || !(await listening(ldapsPort, 2_000))) throw new Error(`slapd did not start: ${output}`);
  };
  const stop = async () => {
    const running = proc;
    proc = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await Promise.race([exited, sleep(5000).then(() => running.kill('SIGKILL'))]);
    await exited;
  };
  await start();
  return {
    dir,
    ldapPort,
    ldapsPort,
    caFile: join(dir, 'ca.pem'),
    clientCertFile: join(dir, 'client.pem'),
    clientKeyFile: join(dir, 'client-key.pem'),
    stop,
    start,
    removePerson: async (uid) => {
      const client = new Client({ url: `ldap://127.0.0.1:${ldapPort}` });
      try {
        await client.bind(`cn=root,${BASE_DN}`, ROOT_PASSWORD);
        await client.del(`uid=${uid},ou=people,${BASE_DN}`);
      } finally {
        await client.unbind().catch(() => undefined);
      }
    },
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One `servers[]` entry of an ldap provider for this slapd: LDAPS with its CA and client certificate, the binder. */
export function ldapServerSpec(s: Slapd, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    host: '127.0.0.1',
    port: s.ldapsPort,
    security: 'tls',
    trusted_ca_file: s.caFile,
    client_cert_file: s.clientCertFile,
    client_key_file: s.clientKeyFile,
    binding: { user_dn: BINDER.dn, password: BINDER.password },
    user_search: { base_dn: `ou=people,${BASE_DN}` },
    group_search: { base_dn: `ou=groups,${BASE_DN}` },
    ...extra,
  };
}
