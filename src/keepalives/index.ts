// Keepalives: legacy clients' keepalives and their monitors, and the TTLs of v2 checks.
export { keepaliveCheck, monitorKeepalives, monitorTtl, receiveKeepalive, storeKeepalive } from './keepalives.js';
export { V2TtlMonitor } from './v2-ttl.js';
export { Keepalives, type KeepalivesDeps } from './service.js';
export { receiveOwnKeepalive } from './own-keepalive.js';
export { MonitorResults } from './monitor-results.js';
