import { isDaemonCredential } from '../config/index.js';
import { SecretFailure } from './failure.js';

/** The Env provider: a secret's id names an environment variable of the checkbridge process, never one of its own credentials. */
export function envSecret(id: string, env: NodeJS.ProcessEnv = process.env): string {
  // Refused by name, set or not: whoever may write a Secret must not learn the daemon's credentials (nor whether they are set).
  if (isDaemonCredential(id))
    throw new SecretFailure(`the environment variable ${id} is one of checkbridge's own credentials, which the env provider does not serve`, false);
  if (!Object.hasOwn(env, id) || env[id] === undefined) throw new SecretFailure(`the environment variable ${id} is not set in the checkbridge process`, false);
  return env[id]!;
}
