import type { ConfigSources, Settings } from '../../config/index.js';
import type { LoadOutcome } from '../../config/index.js';
import type { Logger } from '../../log.js';
import type { Lifecycle, Service } from '../lifecycle.js';
import type { Role } from '../fleet.js';
import type { RunFlags } from './run-flags.js';
import type { SettingsHub } from './settings-hub.js';

/** What every role's composition starts from. */
export interface DaemonBase {
  readonly role: Role;
  readonly flags: RunFlags;
  readonly sources: ConfigSources;
  readonly initial: LoadOutcome & { settings: Settings };
  readonly hub: SettingsHub;
  readonly lifecycle: Lifecycle;
  readonly stateDir: string;
  readonly logger: Logger;
}

/** A role's services in start order, what SIGHUP does, and what the `checkbridge running` line says. */
export interface Daemon {
  readonly services: readonly Service[];
  readonly reload: () => void;
  readonly summary: () => Record<string, unknown>;
}
