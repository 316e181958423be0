import type { ChannelModel, ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import { isSharedQueue, publishRequest, type CheckRequest, type PipeType, type QueueStats, type WireDelivery, type WireTransport } from '../transport.js';
import { FailoverOrder, ReconnectRhythm } from '../reconnect.js';
import type { RabbitEndpoint } from './settings.js';
import { EXCHANGE_FLAGS, QUEUE_FLAGS, isPredeclared } from './wire.js';
import type { ChannelAcks } from './acks.js';
import { closeQuietly, declareRoute, openSession, publishDeclared, watchSession, type Session } from './session.js';
import { INSECURE_TLS_WARNING } from '../tls.js';

interface Binding {
  readonly type: PipeType;
  readonly pipe: string;
}

/** A queue we read: its bindings, and who gets what arrives through each exchange. */
interface Funnel {
  readonly ack: boolean;
  readonly bindings: Map<string, Binding>;
  readonly handlers: Map<string, (message: ConsumeMessage, acks: ChannelAcks) => void>;
}

// The initial attempt gives up after 20 s and falls into the reconnect loop.
const ATTEMPT_LIMIT_MS = 20_000;

/** The legacy RabbitMQ transport over amqplib. */
export class RabbitTransport implements WireTransport {
  readonly name = 'rabbitmq' as const;
  private readonly log: Logger;
  private readonly funnels = new Map<string, Funnel>();
  /** Queues kept bound to a direct exchange without a consumer of ours: funnel → pipe. */
  private readonly routes = new Map<string, string>();
  private readonly listeners: (() => void)[] = [];
  private readonly lossListeners: (() => void)[] = [];
  private readonly rhythm = new ReconnectRhythm();
  private readonly order: FailoverOrder<RabbitEndpoint>;
  private session: Session | null = null;
  private ready = false;
  private closed = false;
  private everConnected = false;
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    endpoints: readonly RabbitEndpoint[],
    /** The per-process queue that fanout subscriptions are bound to. */
    private readonly clientQueue: string,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'transport', transport: 'rabbitmq' });
    const insecure = endpoints.filter((endpoint) => endpoint.insecure).map((endpoint) => endpoint.label);
    if (insecure.length > 0) this.log.warn({ brokers: insecure, setting: 'rabbitmq.ssl.insecure' }, INSECURE_TLS_WARNING);
    this.order = new FailoverOrder(endpoints);
  }

  start(): void {
    void this.connect();
  }

  connected(): boolean {
    return this.ready && !this.closed;
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

  send(type: PipeType, pipe: string, body: string, options?: Record<string, unknown>): boolean {
    const session = this.session;
    if (!this.connected() || !session) return false;
    // The channel closed under us: the message is lost, as legacy's would be.
    publishDeclared(session, pipe === 'keepalives' ? session.main : session.other, type, pipe, body, options);
    return true;
  }

  /** On the confirm channel: `settled(true)` once the broker confirmed it; false when refused or the connection went first. */
  sendConfirmed(pipe: string, body: string, settled: (confirmed: boolean) => void): boolean {
    const session = this.session;
    if (!this.connected() || !session) return false;
    publishDeclared(session, session.confirms, 'direct', pipe, body, undefined, settled);
    return true;
  }

  /** A client subscription: a shared queue named after `roundrobin:`/`direct:` subscriptions, else the process queue. */
  subscribe(subscription: string, _consumer: string, handler: (request: CheckRequest, subscription: string) => void): () => void {
    const shared = isSharedQueue(subscription);
    const funnel = shared ? subscription : this.clientQueue;
    const binding: Binding = { type: shared ? 'direct' : 'fanout', pipe: subscription };
    this.bind(funnel, false, binding, (message) => {
      let request: unknown;
      try {
        request = JSON.parse(message.content.toString('utf8'));
      } catch (error) {
        this.log.error(
          { payload: message.content.toString('utf8').slice(0, 256), error: (error as Error).message },
          'failed to parse the check request payload',
        );
        return;
      }
      handler(request as CheckRequest, subscription);
    });
    return () => this.unbind(funnel, binding);
  }

  consume(pipe: string, funnel: string, handler: (delivery: WireDelivery) => void): void {
    this.bind(funnel, true, { type: 'direct', pipe }, (message, acks) => {
      handler({
        body: message.content,
        redelivered: message.fields.redelivered,
        ack: () => acks.ack(message),
        requeue: () => acks.requeue(message),
      });
    });
  }

  route(pipe: string, funnel: string): void {
    if (this.routes.get(funnel) === pipe) return;
    this.routes.set(funnel, pipe);
    if (this.session) this.declareRoute(this.session, funnel, pipe);
  }

  async stats(funnel: string): Promise<QueueStats> {
    const session = this.session;
    if (!this.connected() || !session) return { messages: null, consumers: null };
    // Legacy `stats`: a non-passive declare with the legacy flags, which creates the queue if absent.
    const reply = await session.main.assertQueue(funnel, QUEUE_FLAGS);
    return { messages: reply.messageCount, consumers: reply.consumerCount };
  }

  async stopConsuming(graceMs: number): Promise<void> {
    const session = this.session;
    if (!session) return this.funnels.clear();
    // Behind any declaration under way, so that no consumer starts after its cancel.
    await new Promise<void>((resolve) =>
      this.enqueue(session, async () => {
        try {
          const tags = [...session.consumers.values()].filter((tag) => tag !== '');
          session.consumers.clear();
          // Deliveries before the cancel-ok still reach their handlers.
          await Promise.all(tags.map((tag) => session.main.cancel(tag)));
        } finally {
          // Nothing is consumed again, not even after a reconnection.
          this.funnels.clear();
          resolve();
        }
      }),
    );
    if (await session.acks.settledWithin(graceMs)) return;
    await session.main.recover().catch(() => undefined);
    session.acks.forget();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.ready = false;
    clearTimeout(this.timer);
    const session = this.session;
    this.session = null;
    this.generation++;
    if (session) await closeQuietly(session);
  }

  private bind(name: string, ack: boolean, binding: Binding, handler: (message: ConsumeMessage, acks: ChannelAcks) => void): void {
    let funnel = this.funnels.get(name);
    if (!funnel) {
      funnel = { ack, bindings: new Map(), handlers: new Map() };
      this.funnels.set(name, funnel);
    }
    funnel.bindings.set(binding.pipe, binding);
    funnel.handlers.set(binding.pipe, handler);
    if (this.session) this.declare(this.session, name, [binding]);
  }

  private unbind(name: string, binding: Binding): void {
    const funnel = this.funnels.get(name);
    if (!funnel) return;
    funnel.bindings.delete(binding.pipe);
    funnel.handlers.delete(binding.pipe);
    const session = this.session;
    const empty = funnel.bindings.size === 0;
    if (empty) this.funnels.delete(name);
    if (!session) return;
    this.enqueue(session, async () => {
      if (!session.queues.has(name)) return;
      await session.main.unbindQueue(name, binding.pipe, '');
      const tag = session.consumers.get(name);
      // The last consumer gone, the auto-delete queue goes with it.
      if (empty && tag !== undefined) {
        session.consumers.delete(name);
        session.queues.delete(name);
        await session.main.cancel(tag);
      }
    });
  }

  /** Queue, exchanges, bindings and the one consumer of a funnel. */
  private declare(session: Session, name: string, bindings: readonly Binding[]): void {
    this.enqueue(session, async () => {
      const funnel = this.funnels.get(name);
      if (!funnel) return;
      if (!session.queues.has(name)) {
        await session.main.assertQueue(name, QUEUE_FLAGS);
        session.queues.add(name);
      }
      for (const binding of bindings) {
        if (!isPredeclared(binding.type, binding.pipe)) await session.main.assertExchange(binding.pipe, binding.type, EXCHANGE_FLAGS);
        await session.main.bindQueue(name, binding.pipe, '');
      }
      if (session.consumers.has(name)) return;
      session.consumers.set(name, '');
      const dispatch = (message: ConsumeMessage | null) => {
        // null: the broker cancelled the consumer (the queue was deleted); a reconnect declares it again.
        if (!message) return this.lost(session, 'rabbitmq consumer cancelled');
        const handler = this.funnels.get(name)?.handlers.get(message.fields.exchange);
        if (funnel.ack) session.acks.delivered(message);
        if (handler) handler(message, session.acks);
        else if (funnel.ack) session.acks.ack(message);
      };
      const { consumerTag } = await session.main.consume(name, dispatch, { noAck: !funnel.ack, exclusive: false });
      session.consumers.set(name, consumerTag);
    });
  }

  private declareRoute(session: Session, funnel: string, pipe: string): void {
    this.enqueue(session, () => declareRoute(session, funnel, pipe));
  }

  private enqueue(session: Session, work: () => Promise<void>): void {
    session.chain = session.chain.then(work).catch((error: Error) => this.lost(session, 'rabbitmq channel error', error));
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const generation = ++this.generation;
    const endpoint = this.order.next();
    const opened: ChannelModel[] = [];
    const limit = setTimeout(() => {
      if (this.generation !== generation) return;
      this.log.warn({ broker: endpoint.label }, 'timed out connecting to transport');
      for (const connection of opened) void connection.close().catch(() => undefined);
      this.retry();
    }, ATTEMPT_LIMIT_MS);
    try {
      const session = await openSession(endpoint, generation, opened, () => this.generation !== generation);
      this.session = session;
      watchSession(session, this.log, (reason) => this.lost(session, reason));
      for (const name of this.funnels.keys()) this.declare(session, name, [...this.funnels.get(name)!.bindings.values()]);
      for (const [funnel, pipe] of this.routes) this.declareRoute(session, funnel, pipe);
      await session.chain;
      if (this.session !== session) return;
      clearTimeout(limit);
      this.ready = true;
      this.rhythm.reset();
      this.log.info({ broker: endpoint.label, prefetch: endpoint.prefetch }, this.everConnected ? 'reconnected to transport' : 'connected to transport');
      this.everConnected = true;
      for (const listener of this.listeners) listener();
    } catch (error) {
      clearTimeout(limit);
      if (this.generation !== generation || this.closed) return;
      this.log.warn({ broker: endpoint.label, error: (error as Error).message }, 'transport connection error');
      for (const connection of opened) void connection.close().catch(() => undefined);
      this.session = null;
      this.retry();
    }
  }

  private lost(session: Session, reason: string, error?: Error): void {
    if (this.closed || this.session !== session) return;
    this.log.warn({ reason, ...(error ? { error: error.message } : {}) }, 'transport connection lost');
    const wasReady = this.ready;
    this.session = null;
    this.ready = false;
    this.generation++;
    void closeQuietly(session);
    this.retry();
    if (wasReady) for (const listener of this.lossListeners) listener();
  }

  private retry(): void {
    if (this.closed) return;
    this.ready = false;
    this.generation++;
    clearTimeout(this.timer);
    const delay = this.rhythm.next();
    this.log.info({ in_seconds: delay / 1000 }, 'reconnecting to transport');
    this.timer = setTimeout(() => void this.connect(), delay);
  }
}
