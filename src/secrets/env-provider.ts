import { SecretFailure } from './failure.js';

/** The Env provider: a secret's id names an environment variable of the checkbridge process. */
export function envSecret(id: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!Object.hasOwn(env, id) || env[id] === undefined) throw new SecretFailure(`the environment variable ${id} is not set in the checkbridge process`, false);
  return env[id]!;
}
