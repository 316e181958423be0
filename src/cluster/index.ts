import type { Logger } from 'pino';
import { poolConfigOf, pgEnvironment } from '../store/index.js';
import { daemonEnvironment } from '../config/index.js';
import { AlwaysLeader, type Leadership } from './leadership.js';
import { PostgresElector } from './postgres-elector.js';
import { PgChannel, type ClusterChannel } from './pg-channel.js';

export type { Leadership, ServerEntry } from './leadership.js';
export { AlwaysLeader } from './leadership.js';
export { PostgresElector, ELECTION_LOCK } from './postgres-elector.js';
export type { ClusterChannel } from './pg-channel.js';
export { ChannelService, channelKey } from './channel-service.js';

/** With a shared store's DSN, an election on that PostgreSQL; without, this server alone is always the leader. */
export function leadershipFor(dsn: string | null, identity: { name: string; pid: number }, logger: Logger): Leadership {
  if (dsn === null) return new AlwaysLeader();
  const { max: _max, ...connection } = poolConfigOf(dsn, 1, pgEnvironment(daemonEnvironment()));
  return new PostgresElector({ connection, identity, logger });
}

/** With a shared store's DSN, a channel to the other servers over that PostgreSQL's LISTEN/NOTIFY; alone, none. */
export function clusterChannelFor(dsn: string | null, channel: string, logger: Logger, keyOf: () => string): ClusterChannel | null {
  if (dsn === null) return null;
  const { max: _max, ...connection } = poolConfigOf(dsn, 1, pgEnvironment(daemonEnvironment()));
  return new PgChannel(connection, channel, logger, keyOf);
}
