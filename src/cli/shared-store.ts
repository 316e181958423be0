import type { Command } from 'commander';
import type { Settings } from '../config/index.js';
import { daemonEnvironment } from '../config/index.js';
import { CheckbridgeError } from '../errors.js';
import { resolveSecret, STORE_DSN } from './secret-options.js';
import { configuredStoreDsn } from '../config/index.js';

export interface SharedStoreFlags {
  storeDsn?: string;
  storeDsnFile?: string;
}

/** `--store-dsn` on `run`: the whole store on PostgreSQL, shared by every server pointed at it. */
export function withSharedStoreOption(command: Command): Command {
  return command
    .option(
      '--store-dsn <dsn>',
      'put all state on PostgreSQL (URL or keyword string; PG* variables fill in the rest) so several servers share it; checkbridge.store_quota and `checkbridge upgrade` apply to the embedded SQLite file only (env CHECKBRIDGE_STORE_DSN; settings checkbridge.store.dsn; default: the embedded SQLite file). A DSN with a password is better given by --store-dsn-file',
    )
    .option('--store-dsn-file <file>', 'read the --store-dsn DSN from this file, kept off the command line (env CHECKBRIDGE_STORE_DSN_FILE)');
}

/**
 * The shared store's DSN, or null for the embedded SQLite store: --store-dsn or --store-dsn-file, then
 * CHECKBRIDGE_STORE_DSN or CHECKBRIDGE_STORE_DSN_FILE, then `checkbridge.store.dsn`.
 */
export function sharedStoreDsn(flags: SharedStoreFlags, settings: Settings, env = daemonEnvironment()): string | null {
  const configured = configuredStoreDsn(settings);
  const dsn = resolveSecret(STORE_DSN, { value: flags.storeDsn, file: flags.storeDsnFile }, env) ?? configured;
  if (dsn === undefined || dsn === null || dsn === '') return null;
  if (typeof dsn !== 'string')
    throw new CheckbridgeError('CB_CONFIG_REFUSED', 'checkbridge.store.dsn must be a string (a postgres:// URL or a keyword string)');
  return dsn;
}
