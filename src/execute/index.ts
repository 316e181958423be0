// Running a check: spawning commands, hooks, limits, the result it yields. What other folders may use of it.
export { runCheck, type PrepareRun } from './check-run.js';
export { withEnvVars } from './env-vars.js';
export { type Runner } from './hooks.js';
export { Limiter } from './limiter.js';
export { RemoteSpawner } from './remote-spawner.js';
export { Processes, type Run } from './processes.js';
export { type CheckResult, type ResultIntake } from './result.js';
export { spawnCommand, type PathPrepend, type SpawnOptions, type SpawnResult } from './spawn.js';
