import { randomBytes } from 'node:crypto';
import type { ResourceTables } from '../store/index.js';
import type { Service } from '../service.js';
import type { ClusterChannel } from './pg-channel.js';

/** The key the servers sign their channel's messages with: made by the first of them, kept in the shared store. */
export function channelKey(resources: Pick<ResourceTables, 'secret'>): string {
  return resources.secret('cluster-channel-key', () => randomBytes(32).toString('hex'));
}

/** The channel to the other servers as a service: listening from start (after the store's), closed at stop; alone, none. */
export class ChannelService implements Service {
  readonly name = 'cluster channel';

  constructor(private readonly channel: ClusterChannel | null) {}

  async start(): Promise<void> {
    await this.channel?.start();
  }

  async stop(): Promise<void> {
    await this.channel?.close();
  }
}
