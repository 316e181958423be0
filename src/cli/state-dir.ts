import type { Command } from 'commander';

/** The state directory option of the offline commands, with the daemon's default (`run --state-dir`). */
export function stateDirOption(command: Command): Command {
  return command.option('--state-dir <dir>', "the daemon's state directory (env CHECKBRIDGE_STATE_DIR)", process.env.CHECKBRIDGE_STATE_DIR ?? 'state');
}
