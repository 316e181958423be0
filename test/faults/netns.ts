// A network namespace joined to the host by a veth pair with a private /29: a server run inside reaches the host's
// PostgreSQL over it, and its PostgreSQL traffic alone can be dropped silently (no RST); the host's network is untouched.
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
  /** The command prefix that runs a program inside (it execs: the pid is the program's). */
  readonly wrapper: readonly string[];
  /** Drops every packet the namespace sends to `postgresAddress` (silently: no RST, no ICMP, connects hang). */
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
  const [hostAddress, nsAddress, postgresAddress] = [`10.213.${x}.1`, `10.213.${x}.2`, `10.213.${x}.3`];
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
    ns('ip', 'link', 'set', nsIf, 'up');
    ns('ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    remove();
    return `cannot create a network namespace with a veth pair: ${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()}`;
  }
  return {
    name,
    hostAddress,
    postgresAddress,
    nsAddress,
    wrapper: ['ip', 'netns', 'exec', name],
    cut() {
      // Frames to PostgreSQL's address go to a MAC nobody has: the host's end drops them unseen (this kernel has no netem
      // or tc classifiers); every other address of the pair still works.
      ns('ip', 'neigh', 'replace', postgresAddress, 'lladdr', '02:00:00:00:00:01', 'dev', nsIf, 'nud', 'permanent');
    },
    heal() {
      ns('ip', 'neigh', 'del', postgresAddress, 'dev', nsIf);
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
