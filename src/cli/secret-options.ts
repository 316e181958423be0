// Secrets given to a command: a flag puts them on the command line, which every local user reads (ps, /proc/PID/cmdline),
// so each secret flag has a file form and environment forms, and the flag itself draws a warning.
import { readFileSync } from 'node:fs';
import { CheckbridgeError } from '../errors.js';

export interface SecretOption {
  /** The flag carrying the secret itself, `--store-dsn`; its file form is `<flag>-file`. */
  readonly flag: string;
  /** The variable carrying the secret itself; its file form is `<variable>_FILE`. */
  readonly variable: string;
}

export const STORE_DSN: SecretOption = { flag: '--store-dsn', variable: 'CHECKBRIDGE_STORE_DSN' };
export const BRIDGE_API_KEY: SecretOption = { flag: '--bridge-api-key', variable: 'CHECKBRIDGE_BRIDGE_API_KEY' };
export const API_KEY: SecretOption = { flag: '--api-key', variable: 'CHECKBRIDGE_API_KEY' };

/** A secret file's content, less the one line end an editor leaves; unreadable or empty is refused, naming the file. */
function readSecretFile(where: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CheckbridgeError('CB_CLI_USAGE', `${where} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') throw new CheckbridgeError('CB_CLI_USAGE', `${where} ${path}: the file is empty`);
  return value;
}

// Empty is not given, except that an empty value alone still beats what comes after it (as before the file forms).
function oneOf(direct: { name: string; value: string | undefined }, file: { name: string; path: string | undefined }): string | undefined {
  const hasFile = file.path !== undefined && file.path !== '';
  if (direct.value !== undefined && direct.value !== '' && hasFile)
    throw new CheckbridgeError('CB_CLI_USAGE', `${direct.name} and ${file.name} are both given: give one of them`);
  return hasFile ? readSecretFile(file.name, file.path!) : direct.value;
}

/** The secret from the flag, its file flag, the variable or its file variable, in that order; undefined when none is set. */
export function resolveSecret(
  option: SecretOption,
  flags: { value?: string | undefined; file?: string | undefined },
  env: NodeJS.ProcessEnv,
): string | undefined {
  return (
    oneOf({ name: option.flag, value: flags.value }, { name: `${option.flag}-file`, path: flags.file }) ??
    oneOf({ name: option.variable, value: env[option.variable] }, { name: `${option.variable}_FILE`, path: env[`${option.variable}_FILE`] })
  );
}

/** The warning for a secret given as a flag, naming the safer forms; null when the flag was not used. */
export function secretFlagWarning(option: SecretOption, value: string | undefined): string | null {
  if (value === undefined) return null;
  return `${option.flag} puts a secret on the command line, where every local user can read it: use ${option.flag}-file FILE, ${option.variable}_FILE or ${option.variable} instead`;
}
