import { isDaemonCredential } from '../config/index.js';
import { withholdCredentials } from '../config/index.js';
import { blankArguments, blankStartEnvironment } from '../config/index.js';
import { secretFlagWarning, type SecretOption } from './secret-options.js';

/**
 * First thing `run` does, before it forks or reads anything: its credentials leave process.env and their values are
 * blanked where other processes read them (/proc/PID/environ, and /proc/PID/cmdline for secret flags). Returns the
 * warnings to log: secrets given as flags, and anything that could not be blanked.
 */
export function hideDaemonSecrets(flags: readonly { readonly option: SecretOption; readonly value: string | undefined }[]): string[] {
  const warnings = flags.map(({ option, value }) => secretFlagWarning(option, value)).filter((w): w is string => w !== null);
  const names = withholdCredentials();
  const where = (file: string) => `/proc/${process.pid}/${file}`;
  if (names.length > 0) {
    try {
      blankStartEnvironment(isDaemonCredential);
    } catch (error) {
      warnings.push(
        `${names.join(', ')} stay readable in ${where('environ')} by this user's processes, checks and handlers included: ${(error as Error).message}`,
      );
    }
  }
  const values = flags.map((f) => f.value).filter((v): v is string => v !== undefined && v !== '');
  try {
    blankArguments(values);
  } catch (error) {
    warnings.push(`secrets given as flags stay readable in ${where('cmdline')} by every local user: ${(error as Error).message}`);
  }
  return warnings;
}
