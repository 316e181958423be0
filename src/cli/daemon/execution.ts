import { Processes } from '../../execute/index.js';
import { daemonAssets } from '../../assets/index.js';
import type { Logger } from '../../log.js';
import { SETTLE_MS } from '../lifecycle.js';
import type { SettingsHub } from './settings-hub.js';

export interface Execution {
  /** The child processes of checks and handlers; a service of its own. */
  readonly processes: Processes;
  readonly assets: ReturnType<typeof daemonAssets>;
}

/** The spawner helper, the spawn limit, assets and SENSU_LOADED_TEMPFILE, for checks and handlers alike. */
export function buildExecution(stateDir: string, hub: SettingsHub, logger: Logger): Execution {
  const processes = new Processes(stateDir, hub.current(), SETTLE_MS);
  hub.onApply((s) => processes.apply(s));
  return { processes, assets: daemonAssets(stateDir, hub.current, logger) };
}
