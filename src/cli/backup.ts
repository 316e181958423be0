import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backupSqliteStore } from '../store/index.js';
import { CheckbridgeError } from '../errors.js';
import { stateDirOption } from './state-dir.js';

/** `checkbridge backup FILE`: a consistent copy of the embedded store, taken while the daemon runs. */
export function registerBackup(program: Command): void {
  stateDirOption(program.command('backup'))
    .description(
      "copy the embedded SQLite state store to FILE, consistently, while checkbridge runs (SQLite's online backup). A PostgreSQL store (run --store-dsn) is backed up with pg_dump",
    )
    .argument('<file>', 'the copy to write (must not exist)')
    .action(async (file: string, flags: { stateDir: string }) => {
      const store = join(resolve(flags.stateDir), 'checkbridge.db');
      const destination = resolve(file);
      if (!existsSync(store)) throw new CheckbridgeError('CB_CLI_USAGE', `no store at ${store}: name the daemon's state directory with --state-dir`);
      if (existsSync(destination)) throw new CheckbridgeError('CB_CLI_USAGE', `${destination} already exists: a backup never overwrites a file`);
      const copy = await backupSqliteStore(store, destination);
      process.stdout.write(`backup of the store at ${store} written to ${destination} (${copy.bytes} bytes, schema ${copy.schemaVersion})\n`);
    });
}
