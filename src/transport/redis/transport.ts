import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type * as IoRedis from 'ioredis';
import type { Logger } from 'pino';
import { isSharedQueue, publishRequest, type CheckRequest, type PipeType, type QueueStats, type WireDelivery, type WireTransport } from '../transport.js';
import type { RedisEndpoint } from './settings.js';
import { INSECURE_TLS_WARNING } from '../tls.js';

/** One list read with BLPOP on its own connection. */
interface ListReader {
  readonly key: string;
  readonly connection: Redis;
  readonly deliver: (body: Buffer) => WireDelivery;
  readonly handle: (delivery: WireDelivery) => void;
  inFlight: number;
  stopped: boolean;
  wake: (() => void) | null;
}

// The legacy monitor reconnects every 3 s.
const RECONNECT_MS = 3000;
// Results popped but not yet committed, per list: Redis has no acknowledgement, so this bounds what a crash loses and
// what a frozen server holds back from the others.
const MAX_IN_FLIGHT = 64;
// Taken per round trip: half the bound, so the next pop overlaps the previous group's commit.
const POP_COUNT = MAX_IN_FLIGHT / 2;

// Node's codes for a server certificate that does not verify (chain, expiry, host name).
const isCertificateError = (error: Error) => {
  const code = (error as { code?: string }).code ?? '';
  return /CERT|SIGNATURE|ISSUER|VERIFY|ALTNAME|HOSTNAME/.test(code);
};

/** The legacy Redis transport: lists `transport:<db>:list:<pipe>` (RPUSH/BLPOP) and channels `transport:<db>:channel:<pipe>`. */
export class RedisTransport implements WireTransport {
  readonly name = 'redis' as const;
  private readonly log: Logger;
  private readonly command: Redis;
  private readonly pubsub: Redis;
  private readonly readers = new Map<string, ListReader>();
  private readonly channels = new Map<string, (body: Buffer) => void>();
  private readonly listeners: (() => void)[] = [];
  private readonly lossListeners: (() => void)[] = [];
  private wasConnected = false;
  private everConnected = false;
  private closed = false;
  private lpopCount = true;
  private readonly certificateErrors = new Set<string>();

  constructor(
    private readonly endpoint: RedisEndpoint,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'transport', transport: 'redis' });
    if (endpoint.insecure) this.log.warn({ broker: endpoint.label, setting: 'redis.tls.insecure' }, INSECURE_TLS_WARNING);
    this.command = this.connection('redis');
    this.pubsub = this.connection('pubsub');
    this.pubsub.on('messageBuffer', (channel: Buffer, body: Buffer) => this.channels.get(channel.toString())?.(body));
  }

  start(): void {
    for (const connection of this.connections()) void connection.connect().catch(() => undefined);
  }

  connected(): boolean {
    return !this.closed && this.connections().every((connection) => connection.status === 'ready');
  }

  onConnected(listener: () => void): void {
    this.listeners.push(listener);
  }

  onDisconnected(listener: () => void): void {
    this.lossListeners.push(listener);
  }

  publish(subscription: string, request: CheckRequest): void {
    publishRequest(this, this.log, subscription, request);
  }

  send(type: PipeType, pipe: string, body: string): boolean {
    if (!this.connected()) return false;
    const sent = type === 'direct' ? this.command.rpush(this.listKey(pipe), body) : this.command.publish(this.channelKey(pipe), body);
    sent.catch((error: Error) => this.log.warn({ pipe, error: error.message }, 'failed to publish to transport'));
    return true;
  }

  subscribe(subscription: string, _consumer: string, handler: (request: CheckRequest, subscription: string) => void): () => void {
    const receive = (body: Buffer) => {
      let request: unknown;
      try {
        request = JSON.parse(body.toString('utf8'));
      } catch (error) {
        this.log.error({ payload: body.subarray(0, 256).toString('utf8'), error: (error as Error).message }, 'failed to parse the check request payload');
        return;
      }
      handler(request as CheckRequest, subscription);
    };
    if (isSharedQueue(subscription)) {
      const key = this.listKey(subscription);
      this.read(key, (delivery) => {
        delivery.ack();
        receive(delivery.body);
      });
      return () => this.stopReading(key);
    }
    const channel = this.channelKey(subscription);
    this.channels.set(channel, receive);
    void this.pubsub.subscribe(channel).catch(() => undefined);
    return () => {
      this.channels.delete(channel);
      void this.pubsub.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** `funnel` means nothing to the Redis transport: the list is the pipe's. */
  consume(pipe: string, _funnel: string, handler: (delivery: WireDelivery) => void): void {
    this.read(this.listKey(pipe), handler);
  }

  /** A list keeps what is pushed to it whoever reads it: nothing to declare. */
  route(): void {}

  /** Deliberately not legacy's QUIRK (LLEN on the bare name, always 0): the real list length; Redis counts no consumers. */
  async stats(funnel: string): Promise<QueueStats> {
    if (!this.connected()) return { messages: null, consumers: null };
    return { messages: await this.command.llen(this.listKey(funnel)), consumers: 0 };
  }

  /** No acknowledgement on this wire: the readers stop, and what they popped is still handled. */
  async stopConsuming(): Promise<void> {
    for (const key of [...this.readers.keys()]) this.stopReading(key);
    const channels = [...this.channels.keys()];
    this.channels.clear();
    // Not while away: the command would wait for the reconnection.
    if (channels.length > 0 && this.pubsub.status === 'ready') await this.pubsub.unsubscribe(...channels).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    // A reader sits in BLPOP 0, which a QUIT would queue behind for ever: readers are dropped, the others quit.
    for (const reader of this.readers.values()) {
      reader.stopped = true;
      reader.connection.disconnect();
    }
    // A QUIT on a connection that is not up would wait in the offline queue for a server that may never come.
    await Promise.allSettled(
      [this.command, this.pubsub].map((connection) =>
        connection.status === 'ready' ? connection.quit().catch(() => connection.disconnect()) : connection.disconnect(),
      ),
    );
  }

  private listKey(pipe: string): string {
    return `transport:${this.endpoint.db}:list:${pipe}`;
  }

  private channelKey(pipe: string): string {
    return `transport:${this.endpoint.db}:channel:${pipe}`;
  }

  private connections(): Redis[] {
    return [this.command, this.pubsub, ...[...this.readers.values()].map((reader) => reader.connection)];
  }

  private connection(role: string): Redis {
    // The client library is loaded by the first connection: a daemon on another transport never loads it.
    const connection = new (createRequire(import.meta.url)('ioredis') as typeof IoRedis).Redis({
      ...this.endpoint.options,
      lazyConnect: true,
      connectionName: `checkbridge-${role}`,
      // Commands wait for the reconnection rather than fail: a BLPOP resumes where it was.
      maxRetriesPerRequest: null,
      retryStrategy: () => RECONNECT_MS,
    });
    connection.on('error', (error: Error) => {
      if (this.wasConnected) this.log.warn({ connection: role, error: error.message }, 'transport connection error');
      // A refused certificate never goes away by retrying: said once per reason, even before the first connection.
      else if (isCertificateError(error) && !this.certificateErrors.has(error.message)) {
        this.certificateErrors.add(error.message);
        this.log.warn(
          { connection: role, broker: this.endpoint.label, error: error.message, code: (error as { code?: string }).code },
          'transport connection error',
        );
      }
    });
    connection.on('close', () => {
      if (!this.wasConnected || this.closed) return;
      this.wasConnected = false;
      this.log.warn({ connection: role }, 'transport connection lost');
      for (const listener of this.lossListeners) listener();
    });
    connection.on('ready', () => {
      if (this.wasConnected || !this.connected()) return;
      this.wasConnected = true;
      this.log.info({ broker: this.endpoint.label }, this.everConnected ? 'reconnected to transport' : 'connected to transport');
      this.everConnected = true;
      for (const listener of this.listeners) listener();
    });
    return connection;
  }

  private read(key: string, handle: (delivery: WireDelivery) => void): void {
    if (this.readers.has(key)) return;
    const connection = this.connection(`list:${key}`);
    const reader: ListReader = {
      key,
      connection,
      handle,
      inFlight: 0,
      stopped: false,
      wake: null,
      deliver: (body) => {
        let settled = false;
        const release = () => {
          if (settled) return;
          settled = true;
          reader.inFlight--;
          reader.wake?.();
        };
        reader.inFlight++;
        // No acknowledgement on this wire (at most once): both only free the slot.
        return { body, redelivered: false, ack: release, requeue: release };
      },
    };
    this.readers.set(key, reader);
    if (this.command.status !== 'wait') void connection.connect().catch(() => undefined);
    void this.pump(reader);
  }

  private stopReading(key: string): void {
    const reader = this.readers.get(key);
    if (!reader) return;
    reader.stopped = true;
    this.readers.delete(key);
    reader.wake?.();
    reader.connection.disconnect();
  }

  /** BLPOP, then up to POP_COUNT more without blocking (FIFO, as legacy's BLPOP), never more than MAX_IN_FLIGHT unsettled. */
  private async pump(reader: ListReader): Promise<void> {
    while (!reader.stopped && !this.closed) {
      if (MAX_IN_FLIGHT - reader.inFlight < POP_COUNT) {
        await new Promise<void>((resolve) => (reader.wake = resolve));
        reader.wake = null;
        continue;
      }
      try {
        // Sent together, one round trip: the LPOP runs once the BLPOP has its first message.
        const first = reader.connection.blpopBuffer(reader.key, 0);
        const rest = this.lpopCount ? (reader.connection.lpopBuffer(reader.key, POP_COUNT - 1) as unknown as Promise<Buffer[] | null>) : null;
        const more = rest?.catch((error: Error) => {
          // LPOP with a count needs Redis 6.2; older servers get one BLPOP per message, as legacy does.
          if (!/wrong number of arguments|syntax error/i.test(error.message)) throw error;
          this.lpopCount = false;
          return null;
        });
        // Awaited below unless the BLPOP fails first: then its failure is the one reported.
        void more?.catch(() => undefined);
        const popped = await first;
        if (!popped || reader.stopped) continue;
        reader.handle(reader.deliver(popped[1]));
        for (const body of (await more) ?? []) reader.handle(reader.deliver(body));
      } catch (error) {
        if (reader.stopped || this.closed) return;
        this.log.warn({ list: reader.key, error: (error as Error).message }, 'transport read failed');
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      }
    }
  }
}
