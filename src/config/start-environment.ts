import { isDaemonCredential } from './credentials.js';

// The credentials taken out of process.env at start, kept for whatever reads them later (settings reloads, stores).
const withheld: Record<string, string> = {};

/** This process's environment with the credentials it started with: what the daemon reads its own settings from. */
export function daemonEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, ...withheld };
}

/**
 * Takes the daemon's credentials out of process.env (kept for daemonEnvironment()), so no forked helper, worker or
 * code reading process.env finds them. Returns their names. /proc/PID/environ still shows them: see proc-self.ts.
 */
export function withholdCredentials(): string[] {
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || !isDaemonCredential(name)) continue;
    withheld[name] = value;
    delete process.env[name];
  }
  return Object.keys(withheld);
}
