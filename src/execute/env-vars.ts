import type { Runner } from './hooks.js';

/** The `KEY=VALUE` entries of a v2 check's `env_vars` as an environment; entries without `=` or a key are left out. */
export function envOf(envVars: unknown): Record<string, string> {
  const env: Record<string, string> = {};
  if (!Array.isArray(envVars)) return env;
  for (const entry of envVars) {
    if (typeof entry !== 'string') continue;
    const at = entry.indexOf('=');
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return env;
}

/** Runs with the definition's `env_vars` added to the command's environment (Sensu Go's check env_vars). */
export function withEnvVars(run: Runner, envVars: unknown): Runner {
  const env = envOf(envVars);
  if (Object.keys(env).length === 0) return run;
  // Secrets (added around it) win over env_vars of the same name, as in Sensu Go.
  return (command, options) => run(command, { ...options, env: { ...env, ...options.env } });
}
