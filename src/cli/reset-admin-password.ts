import type { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StateStore } from '../store/index.js';
import { hashPassword } from '../auth/index.js';
import { CheckbridgeError } from '../errors.js';
import { stateDirOption } from './state-dir.js';

interface ResetFlags {
  stateDir: string;
  user: string;
  passwordFile?: string;
}

/** The new password: from a file's first line, else CHECKBRIDGE_ADMIN_PASSWORD, else generated (and then shown). */
function newPassword(flags: ResetFlags): { password: string; generated: boolean } {
  if (flags.passwordFile) {
    const password = readFileSync(flags.passwordFile, 'utf8').split('\n')[0]!.trim();
    if (!password) throw new CheckbridgeError('CB_CLI_USAGE', `--password-file ${flags.passwordFile}: its first line is empty`);
    return { password, generated: false };
  }
  const given = process.env.CHECKBRIDGE_ADMIN_PASSWORD;
  if (given) return { password: given, generated: false };
  return { password: randomBytes(18).toString('base64url'), generated: true };
}

/** `checkbridge reset-admin-password`: offline, on the state directory of a stopped daemon; also re-enables the user. */
export function registerResetAdminPassword(program: Command): void {
  stateDirOption(program.command('reset-admin-password'))
    .description(
      "set a v2 user's password (admin by default) in the state store of a stopped checkbridge, and re-enable the user; refused while a daemon holds the store. A PostgreSQL store: change it through the v2 API as another cluster admin",
    )
    .option('--user <name>', 'the user', 'admin')
    .option(
      '--password-file <file>',
      "read the new password from this file's first line (else env CHECKBRIDGE_ADMIN_PASSWORD, else one is generated and printed)",
    )
    .action(async (flags: ResetFlags) => {
      const path = join(resolve(flags.stateDir), 'checkbridge.db');
      if (!existsSync(path)) throw new CheckbridgeError('CB_CLI_USAGE', `no store at ${path}: name the daemon's state directory with --state-dir`);
      const { password, generated } = newPassword(flags);
      const store = StateStore.open(path, { exclusive: true });
      try {
        const existing = store.resources.getUser(flags.user);
        // The admin comes back as it was first created; any other user must exist.
        if (!existing && flags.user !== 'admin') throw new CheckbridgeError('CB_CLI_USAGE', `no user ${JSON.stringify(flags.user)} in ${path}`);
        const user = existing ?? { username: 'admin', groups: ['cluster-admins'] };
        store.resources.putUser(flags.user, { ...user, password_hash: await hashPassword(password), disabled: false });
      } finally {
        store.close();
      }
      process.stdout.write(generated ? `password of ${flags.user} reset to ${password}\n` : `password of ${flags.user} reset\n`);
    });
}
