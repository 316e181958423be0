import type { Settings } from '../../config/index.js';
import { spawnLimitOf } from '../../config/index.js';
import { LoadedTempfile } from '../../config/index.js';
import { Limiter } from '../../execute/index.js';
import type { spawnCommand } from '../../execute/index.js';
import { RemoteSpawner } from '../../execute/index.js';
import { daemonAssets } from '../../assets/index.js';
import type { Logger } from '../../log.js';
import { SETTLE_MS, within, type Service } from '../lifecycle.js';
import type { SettingsHub } from './settings-hub.js';

export type Run = (command: string, options: Parameters<typeof spawnCommand>[1]) => ReturnType<typeof spawnCommand>;

export interface Execution {
  readonly spawner: RemoteSpawner;
  /** A check's command: through the spawn limit. */
  readonly run: Run;
  readonly assets: ReturnType<typeof daemonAssets>;
  /** Work that settles once its processes are stopped (checks, handlers), awaited after the grace. */
  settleAtStop(settle: () => Promise<unknown>): void;
  readonly service: Service;
}

function spawnLimit(settings: Settings): number {
  return spawnLimitOf(settings);
}

/** The spawner helper, the spawn limit, assets and SENSU_LOADED_TEMPFILE, for checks and handlers alike. */
export function buildExecution(stateDir: string, hub: SettingsHub, logger: Logger): Execution {
  const loadedTempfile = new LoadedTempfile(stateDir); // SENSU_LOADED_TEMPFILE for every child
  const limiter = new Limiter(spawnLimit(hub.current()));
  // Checks and handlers fork from one helper process: in a daemon grown to ~380 MB, forking in-process managed
  // 44 executions/s against 394/s through the helper (test/bench/execute), and it stalled intake.
  const spawner = new RemoteSpawner();
  const run: Run = (command, options) => limiter.run(() => spawner.spawn(command, options));
  hub.onApply((s) => {
    loadedTempfile.write(s.files);
    limiter.setLimit(spawnLimit(s));
  });
  const settling: (() => Promise<unknown>)[] = [];
  return {
    spawner,
    run,
    assets: daemonAssets(stateDir, hub.current, logger),
    settleAtStop: (settle) => void settling.push(settle),
    service: {
      name: 'execution',
      start: async () => undefined,
      async stop() {
        // No command runs and no helper starts after this.
        await spawner.close();
        await within(Promise.all(settling.map((settle) => settle())), SETTLE_MS);
        loadedTempfile.remove();
      },
    },
  };
}
