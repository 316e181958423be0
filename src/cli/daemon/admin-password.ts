import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../log.js';

export const ADMIN_PASSWORD_FILE = 'admin-password';
export const AGENT_PASSWORD_FILE = 'agent-password';

/** Which generated password: the file it goes to off a terminal, and the variable that would have chosen it. */
interface Generated {
  readonly file: string;
  readonly variable: string;
}

const ADMIN: Generated = { file: ADMIN_PASSWORD_FILE, variable: 'CHECKBRIDGE_ADMIN_PASSWORD' };
export const AGENT: Generated = { file: AGENT_PASSWORD_FILE, variable: 'CHECKBRIDGE_AGENT_PASSWORD' };

/**
 * A generated password (the admin's, the agents') reaches a person at a terminal; anywhere else (a pipe, the journal)
 * it goes to a 0600 file in the state directory and only the file's path is logged.
 */
export function deliverAdminPassword(
  user: string,
  password: string,
  stateDir: string,
  logger: Logger,
  terminal = process.stderr.isTTY === true,
  which: Generated = ADMIN,
): void {
  if (terminal) {
    process.stderr.write(`checkbridge: created user "${user}" with password ${password} (shown once; set ${which.variable} to choose it)\n`);
    return;
  }
  const file = join(stateDir, which.file);
  // A fresh file (never a link or an older file's mode): exclusive creation after removing what was there.
  rmSync(file, { force: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  logger.warn(
    { user, file },
    `created user "${user}" with a generated password, written to ${file} (read it, then delete it; set ${which.variable} to choose it)`,
  );
}
