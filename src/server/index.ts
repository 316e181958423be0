// The server role: the one event intake, keepalives, handling, check requests. What other folders may use of it.
export { SEVERITIES, aggregateMembers, groupBy, memberNames, resultsOfSeverity, summarize, type Severity } from './aggregates.js';
export { removeClient, resolveEvent } from './client-removal.js';
export { HandlerPipeline, runPipelines } from './handling/index.js';
export { type Spawner } from './handling/mutate.js';
export { type EventIntake } from './intake.js';
export { monitorKeepalives, monitorTtl, receiveKeepalive } from './keepalives.js';
export { legacyToV2Writer } from './legacy-to-v2.js';
export { ServerRole } from './server-role.js';
export { silenceKeys } from './silencing.js';
export { StoreIntake, isV2Event } from './store-intake.js';
export { consumeFleet } from './wire-intake.js';
