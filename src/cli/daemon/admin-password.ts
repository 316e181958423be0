import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../log.js';

export const ADMIN_PASSWORD_FILE = 'admin-password';

/**
 * A generated admin password reaches a person at a terminal; anywhere else (a pipe, the journal) it goes to a 0600 file
 * in the state directory and only the file's path is logged.
 */
export function deliverAdminPassword(user: string, password: string, stateDir: string, logger: Logger, terminal = process.stderr.isTTY === true): void {
  if (terminal) {
    process.stderr.write(`checkbridge: created user "${user}" with password ${password} (shown once; set CHECKBRIDGE_ADMIN_PASSWORD to choose it)\n`);
    return;
  }
  const file = join(stateDir, ADMIN_PASSWORD_FILE);
  // A fresh file (never a link or an older file's mode): exclusive creation after removing what was there.
  rmSync(file, { force: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  logger.warn({ user, file }, `created user "${user}" with a generated password, written to ${file} (read it, then delete it; set CHECKBRIDGE_ADMIN_PASSWORD to choose it)`);
}
