import type { SourceFlags } from '../sources.js';
import type { ListenerFlags } from '../listeners.js';
import type { TlsFlags } from '../tls-options.js';
import type { FleetFlags } from '../fleet.js';
import type { SharedStoreFlags } from '../shared-store.js';

/** The flags of `run`, whatever the role. */
export interface RunFlags extends SourceFlags, ListenerFlags, TlsFlags, FleetFlags, SharedStoreFlags {
  logFormat?: string;
  bridgeUrl?: string;
  bridgeApiKey?: string;
  bridgeApiKeyFile?: string;
  stateDir?: string;
  logLevel?: string;
  /** False with --no-rehearsal: the migration rehearsal is off. */
  rehearsal?: boolean;
}
