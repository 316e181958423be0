/**
 * The daemon's own credentials, by environment variable name: the bootstrap admin password, API keys, tokens and
 * secrets, the store DSN, the PostgreSQL password, and the broker URLs (which carry the broker's password). One
 * policy: never handed to a command, withheld from the daemon's own environment, never served by the Env provider.
 */
const DAEMON_CREDENTIAL = /^(CHECKBRIDGE_\w*(PASSWORD|API_KEY|TOKEN|SECRET|DSN)\w*|PGPASSWORD|RABBITMQ_URL|REDIS_URL|REDIS_SENTINEL_URLS)$/;

export function isDaemonCredential(name: string): boolean {
  return DAEMON_CREDENTIAL.test(name);
}

/** A copy of `env` without the daemon's credentials. */
export function withoutCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isDaemonCredential(name)));
}
