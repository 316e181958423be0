import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { planUpgrade, upgradeStore } from '../store/index.js';
import { CheckbridgeError } from '../errors.js';

/** y/n on the terminal; anything but y or yes is no. */
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^(y|yes)$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** `checkbridge upgrade`: migrate the state store to this binary's schema, after a backup next to it. */
export function registerUpgrade(program: Command): void {
  program
    .command('upgrade')
    .description(
      "migrate the embedded SQLite state store to this binary's schema (backs it up first); harmless to run again. A PostgreSQL store (run --store-dsn) migrates itself when run starts",
    )
    .option('--state-dir <dir>', "the daemon's state directory (default ./state)")
    .option('--skip-confirm', 'do not ask for confirmation')
    .action(async (flags: { stateDir?: string; skipConfirm?: boolean }) => {
      const path = join(resolve(flags.stateDir ?? 'state'), 'checkbridge.db');
      const plan = planUpgrade(path);
      const say = (text: string): void => void process.stdout.write(text + '\n');
      switch (plan.kind) {
        case 'new':
          return say(`no store at ${path}: a new state directory needs no upgrade`);
        case 'newer':
          throw new CheckbridgeError('CB_STORE_NEWER', `${path} has schema version ${plan.version}, newer than this binary's: use a newer checkbridge`);
        case 'refused':
          throw new CheckbridgeError('CB_UPGRADE_REFUSED', `upgrade failed: ${plan.message}`);
        case 'current':
          return say(
            plan.alreadyRan
              ? `upgrade already ran: the store at ${path} is at schema ${plan.version}`
              : `nothing upgraded: the store at ${path} is already at schema ${plan.version}`,
          );
        case 'upgrade': {
          if (!flags.skipConfirm) {
            if (!process.stdin.isTTY)
              throw new CheckbridgeError('CB_CLI_USAGE', 'standard input is not a terminal, so there is no one to ask: pass --skip-confirm to upgrade');
            if (!(await confirm(`Upgrade the store at ${path} from schema ${plan.from} to ${plan.to}? A backup is written first. [y/n] `)))
              return say('upgrade cancelled: nothing changed');
          }
          const { backup } = await upgradeStore(path, plan.from, Date.now());
          say(`backup of the store written to ${backup}`);
          return say(`upgraded the store at ${path} from schema ${plan.from} to ${plan.to}`);
        }
      }
    });
}
