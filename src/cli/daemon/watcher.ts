import type { ConfigSources, Settings } from '../../config/index.js';
import { watchSettings } from '../../watch/index.js';
import type { LoadOutcome } from '../../config/index.js';
import type { Logger } from '../../log.js';
import type { Service } from '../lifecycle.js';
import { settingsLogLevel } from '../logging.js';
import type { SettingsHub } from './settings-hub.js';

/** conf.d edits apply live (and at SIGHUP); last to start, first to stop, so that no reload restarts what is stopping. */
export function buildWatcher(
  sources: ConfigSources,
  initial: LoadOutcome & { settings: Settings },
  hub: SettingsHub,
  isStopping: () => boolean,
  logger: Logger,
): { service: Service; reload: () => void } {
  let watcher: ReturnType<typeof watchSettings> | null = null;
  const service: Service = {
    name: 'watcher',
    async start() {
      watcher = watchSettings({ sources, initial, logger });
      watcher.onChange((_diff, next) => {
        if (settingsLogLevel(next.raw) !== settingsLogLevel(hub.current().raw))
          logger.warn({ 'log-level': settingsLogLevel(next.raw) ?? null }, 'log-level changed in the settings: it applies at restart');
        if (!isStopping()) hub.apply(next);
      });
      await watcher.ready();
    },
    stop: async () => void (await watcher?.close()),
  };
  const reload = () => {
    logger.info('SIGHUP: reloading configuration');
    void watcher?.reload();
  };
  return { service, reload };
}
