// A network namespace joined to the host by a veth pair with a private /29: a server run inside reaches the host's
// PostgreSQL over it (from an address of its own), and that traffic alone can be dropped silently both ways (no RST, no
// ICMP): the host's network is untouched, the pair's other addresses keep working.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';

export interface Netns {
  readonly name: string;
  /** The host side's address (the handler's collector listens there; the test's connections come from it). */
  readonly hostAddress: string;
  /** The host side's second address, PostgreSQL's alone: the one the cut drops. */
  readonly postgresAddress: string;
  /** The namespace side's address: where the namespaced server listens. */
  readonly nsAddress: string;
  /** The namespace side's address its connections to `postgresAddress` come from. */
  readonly nsPostgresAddress: string;
  /** The command prefix that runs a program inside (it execs: the pid is the program's). */
  readonly wrapper: readonly string[];
  /** Drops every packet between `nsPostgresAddress` and `postgresAddress`, both ways (silently: connects hang). */
  cut(): void;
  heal(): void;
  remove(): void;
}

const run = (args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });

/** Why a namespace cannot be made here (not root, no `ip`, not permitted), or null. */
function tryCreate(): Netns | string {
  const id = randomBytes(3).toString('hex');
  const name = `cb-${id}`;
  const hostIf = `cbh${id}`;
  const nsIf = `cbn${id}`;
  let used = '';
  try {
    used = execFileSync('ip', ['-4', 'addr', 'show'], { encoding: 'utf8' });
  } catch (error) {
    return `ip is not usable: ${(error as Error).message}`;
  }
  // A /29 no interface of the host uses (another test file may hold one at the same time).
  let x = randomInt(0, 256);
  while (used.includes(`10.213.${x}.`)) x = (x + 1) % 256;
  const [hostAddress, nsAddress, postgresAddress, nsPostgresAddress] = [1, 2, 3, 4].map((n) => `10.213.${x}.${n}`) as [string, string, string, string];
  const ns = (...args: string[]) => run(['ip', 'netns', 'exec', name, ...args]);
  const remove = () => {
    for (const args of [
      ['ip', 'netns', 'del', name],
      ['ip', 'link', 'del', hostIf],
    ])
      try {
        run(args);
      } catch {
        // Already gone: deleting the namespace deletes the pair.
      }
  };
  try {
    run(['ip', 'netns', 'add', name]);
    run(['ip', 'link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf, 'netns', name]);
    run(['ip', 'addr', 'add', `${hostAddress}/29`, 'dev', hostIf]);
    run(['ip', 'addr', 'add', `${postgresAddress}/29`, 'dev', hostIf]);
    run(['ip', 'link', 'set', hostIf, 'up']);
    ns('ip', 'addr', 'add', `${nsAddress}/29`, 'dev', nsIf);
    ns('ip', 'addr', 'add', `${nsPostgresAddress}/29`, 'dev', nsIf);
    ns('ip', 'link', 'set', nsIf, 'up');
    ns('ip', 'link', 'set', 'lo', 'up');
    ns('ip', 'route', 'add', `${postgresAddress}/32`, 'dev', nsIf, 'src', nsPostgresAddress);
  } catch (error) {
    remove();
    return `cannot create a network namespace with a veth pair: ${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()}`;
  }
  return {
    name,
    hostAddress,
    postgresAddress,
    nsAddress,
    nsPostgresAddress,
    wrapper: ['ip', 'netns', 'exec', name],
    cut() {
      // Frames between the two addresses go to a MAC nobody has, and each end drops them unseen (this kernel has no
      // netem or tc classifiers); only the pair's own neighbour entries change.
      ns('ip', 'neigh', 'replace', postgresAddress, 'lladdr', '02:00:00:00:00:01', 'dev', nsIf, 'nud', 'permanent');
      run(['ip', 'neigh', 'replace', nsPostgresAddress, 'lladdr', '02:00:00:00:00:02', 'dev', hostIf, 'nud', 'permanent']);
    },
    heal() {
      ns('ip', 'neigh', 'del', postgresAddress, 'dev', nsIf);
      run(['ip', 'neigh', 'del', nsPostgresAddress, 'dev', hostIf]);
    },
    remove,
  };
}

/** A namespace removed when the test ends, or null after `t.skip` when one cannot be made (an error under CI=true). */
export function netnsFor(t: { skip(message: string): void; after(fn: () => void | Promise<void>): void }): Netns | null {
  const made = tryCreate();
  if (typeof made === 'string') {
    if (process.env.CI === 'true') throw new Error(`a network namespace is required under CI: ${made}`);
    t.skip(made);
    return null;
  }
  t.after(() => made.remove());
  // A test file that dies before its cleanup leaves no namespace behind.
  process.once('exit', () => made.remove());
  return made;
}
