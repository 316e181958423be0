import { createServer as createHttpServer, STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { ListenerHttps } from '../tls/index.js';
import { loginLimiterFor, type LoginLimiter } from '../auth/index.js';
import { admitAgent, ConnectionRate, CredentialCache, type Admission, type HandshakeDeps } from './handshake.js';
import { AgentMessages, type ReceiveDeps } from './receive.js';
import { AgentSession, FORMAT, type SessionRegistry } from './sessions.js';
import { MESSAGE } from './frames.js';
import { entityConfig, initialEntityConfig, markAllDisconnected } from './entity.js';
import { DisconnectMarks } from './disconnect-marks.js';
import { Heartbeat } from './heartbeat.js';
import { FrameQueue } from './frame-queue.js';
import { deregisterOnLoss } from './deregister.js';
import type { IntakeTopics } from '../intake/index.js';
import type { Entity } from '../v2/index.js';

export interface AgentdDeps extends HandshakeDeps, ReceiveDeps {
  /** The connected agents: shared with who sends them check requests. */
  readonly sessions: SessionRegistry;
  readonly https: ListenerHttps | null;
  /** New connections a second admitted (0: no bound): `checkbridge.agentd.max_new_per_second`. */
  readonly rate: () => number;
  /** What the handshake answers as `Backend-ID`: this daemon's identity for the agent. */
  readonly backendId: string;
  /** The intake's topics: an entity changed through the API reaches its agent, a failed keepalive deregisters an agent gone. */
  readonly topics?: Pick<IntakeTopics, 'entityChange' | 'committed'>;
  /** Who sends check requests: the connected sessions are its subscribers while the server runs. */
  readonly checkRequests?: { registerAgents(sessions: SessionRegistry): () => void };
}

// Both ends ping: a connection silent for two intervals is a dead one (a host lost without a FIN).
const HEARTBEAT_MS = 30_000;
// Each connection's ping falls in one of these slices of the interval: a second's worth of agents a tick.
const HEARTBEAT_SLICES = 30;
// A session's frames read but not yet stored: past this many its socket stops being read, and TCP holds the agent
// back, instead of the daemon holding a flat-out agent's backlog in memory; reading resumes at half.
const MAX_UNSTORED_FRAMES = 256;
// An agent sends nothing before the handshake's answer; a little is kept, more closes the connection.
const MAX_EARLY_BYTES = 64 * 1024;
// The same bound in bytes: a few of the largest frames held, not 256 of them.
const MAX_UNSTORED_BYTES = 8 * 1024 * 1024;
// What a refusal's log line shows of a header: a 10,000-character name is not written out at every attempt.
const logged = (value: unknown) => (typeof value === 'string' && value.length > 256 ? `${value.slice(0, 256)}…` : value);

/** A refusal as an HTTP answer on the upgrading socket: the agent logs `handshake failed with status N: <body>`. */
function refuseUpgrade(socket: Duplex, status: number, message: string, retryAfter?: number): void {
  const body = `${message}\n`;
  const retry = retryAfter ? `Retry-After: ${retryAfter}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: text/plain; charset=utf-8\r\n${retry}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

// As Sensu Go: protobuf exactly when the agent's `Accept` is protobuf's type, JSON otherwise.
const formatOf = (request: IncomingMessage) => (request.headers.accept === FORMAT.protobuf ? FORMAT.protobuf : FORMAT.json);

const rawToBuffer = (data: RawData): Buffer => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));

/** The agent WebSocket (Sensu Go's agentd): handshake, sessions, and what the agents send. */
export class AgentdServer {
  readonly server: Server;
  readonly sessions: SessionRegistry;
  private readonly wss: WebSocketServer;
  private readonly credentials = new CredentialCache();
  // The v2 API's limiter too: failures at `/auth` count here, and guesses here count there.
  private readonly logins: LoginLimiter;
  private readonly connections: ConnectionRate;
  private readonly messages: AgentMessages;
  private readonly frames = new FrameQueue();
  /** Sessions paused while the intake is full: resumed when it drains. */
  private readonly pressured = new Set<() => void>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly heartbeats = new Heartbeat<WebSocket>(HEARTBEAT_SLICES);
  private heartbeat: NodeJS.Timeout | undefined;
  private closing = false;
  private readonly disconnects: DisconnectMarks;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly deps: AgentdDeps) {
    this.sessions = deps.sessions;
    this.server = deps.https ? createHttpsServer({ ...deps.https }) : createHttpServer();
    this.wss = new WebSocketServer({ noServer: true, maxPayload: deps.maxMessageBytes });
    this.connections = new ConnectionRate(deps.rate);
    this.logins = loginLimiterFor(deps.resources, deps.clock);
    this.messages = new AgentMessages(deps);
    this.disconnects = new DisconnectMarks(deps.store, deps.logger);
    // The intake has room again: the sessions it held back are read again.
    deps.intake.backlog.onDrained(() => [...this.pressured].forEach((resume) => resume()));
    // Both formats offered, one `Accept` line each (the agent looks for protobuf's among them); the agent's choice answered.
    this.wss.on('headers', (headers, request) =>
      headers.push(`Backend-ID: ${deps.backendId}`, `Accept: ${FORMAT.protobuf}`, `Accept: ${FORMAT.json}`, `Content-Type: ${formatOf(request)}`),
    );
    this.server.on('request', (_request, response) => {
      response
        .writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' })
        .end('the Sensu Go agent WebSocket: connect with a WebSocket upgrade\n');
    });
    this.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(request, socket, head));
    const { topics, checkRequests } = deps;
    if (topics) {
      this.unsubscribe.push(topics.entityChange.subscribe(({ namespace, name }) => void this.sendEntityConfig(namespace, name)));
      this.unsubscribe.push(topics.committed.subscribe(deregisterOnLoss(deps.store, deps.intake, this.sessions, deps.logger)));
    }
    if (checkRequests) this.unsubscribe.push(checkRequests.registerAgents(this.sessions));
  }

  listen(options: { host: string; port: number }): Promise<void> {
    markAllDisconnected(this.deps.store);
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(options.port, options.host, () => {
        this.server.off('error', reject);
        this.heartbeat = setInterval(() => this.heartbeats.tick(), HEARTBEAT_MS / HEARTBEAT_SLICES).unref();
        resolve();
      });
    });
  }

  /** Tells the agent its entity changed through the API (labels, subscriptions): Sensu Go's `entity_config`. */
  sendEntityConfig(namespace: string, name: string): boolean {
    const session = this.sessions.get(namespace, name);
    const entity: Entity | null = session ? this.deps.resources.getEntity(namespace, name) : null;
    if (!session || !entity) return false;
    session.subscriptions = new Set(entity.subscriptions ?? []);
    session.entity = entity;
    return session.send(MESSAGE.entityConfig, entityConfig(entity));
  }

  /** Stops admitting, closes every session (the agents reconnect with back-off), then waits for what they sent. */
  async close(): Promise<void> {
    this.closing = true;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    clearInterval(this.heartbeat);
    for (const client of this.wss.clients) client.close(1001, 'backend going away');
    await Promise.allSettled([...this.inFlight]);
    await this.disconnects.flushed();
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', (error) => this.deps.logger.debug({ err: error }, 'agent socket error'));
    if (this.closing) return refuseUpgrade(socket, 503, 'the backend is stopping');
    if (!this.connections.admit(this.deps.clock.now())) return refuseUpgrade(socket, 429, 'too many new agent connections a second: retry later');
    // Read while the handshake is checked, so a peer that gave up is seen; what it sent goes to the WebSocket as `head`.
    const early = [head];
    let earlyBytes = head.length;
    const keep = (chunk: Buffer) => (early.push(chunk), (earlyBytes += chunk.length) > MAX_EARLY_BYTES && socket.destroy());
    socket.on('data', keep);
    const admission = await admitAgent(request, this.deps, this.credentials, this.logins).catch((error: Error): Admission => ({
      ok: false,
      status: 500,
      message: error.message,
    }));
    // The agent's stored entity, for its first `entity_config`: read without holding the thread.
    const stored = admission.ok ? await this.storedEntity(admission.identity).catch((error: Error) => error) : null;
    // Handed over in this same turn: the socket keeps flowing into the WebSocket's own reader.
    socket.off('data', keep);
    if (stored instanceof Error) return refuseUpgrade(socket, 503, `the store did not answer: ${stored.message}`);
    if (!admission.ok) {
      this.deps.logger.warn(
        {
          agent: logged(request.headers['sensu-agentname']),
          namespace: logged(request.headers['sensu-namespace']),
          status: admission.status,
          remote: request.socket.remoteAddress,
        },
        `agent refused: ${admission.message}`,
      );
      return refuseUpgrade(socket, admission.status, admission.message, admission.retryAfter);
    }
    this.wss.handleUpgrade(request, socket, Buffer.concat(early), (ws) =>
      this.open(new AgentSession(admission.identity, ws, formatOf(request) === FORMAT.protobuf), ws, stored),
    );
  }

  /**
   * Frames go through the one queue (a byte budget a turn); a session with too much unstored stops being read, and so
   * does every session while the intake is full (the store behind): the agent's frames wait unread, none is dropped.
   */
  private receiveFrames(session: AgentSession, ws: WebSocket): void {
    let [frames, bytes] = [0, 0];
    const over = () => frames >= MAX_UNSTORED_FRAMES || bytes >= MAX_UNSTORED_BYTES;
    const { backlog } = this.deps.intake;
    const resumeIfFree = () => {
      if (!ws.isPaused || frames > MAX_UNSTORED_FRAMES / 2 || bytes > MAX_UNSTORED_BYTES / 2) return;
      if (backlog.full) return void this.pressured.add(resumeIfFree);
      this.pressured.delete(resumeIfFree);
      ws.resume();
    };
    ws.once('close', () => this.pressured.delete(resumeIfFree));
    ws.on('message', (data) => {
      if (session.discarding) return;
      const buffer = rawToBuffer(data);
      [frames, bytes] = [frames + 1, bytes + buffer.length];
      if (over() || backlog.full) ws.pause();
      if (backlog.full) this.pressured.add(resumeIfFree);
      const done = new Promise<void>((resolve) => this.frames.push(buffer.length, () => this.receiveOne(session, buffer).finally(resolve)));
      this.inFlight.add(done);
      void done.finally(() => {
        this.inFlight.delete(done);
        [frames, bytes] = [frames - 1, bytes - buffer.length];
        resumeIfFree();
      });
    });
  }

  private receiveOne(session: AgentSession, buffer: Buffer): Promise<void> {
    if (session.discarding) return Promise.resolve();
    return this.messages
      .receive(session, buffer)
      .catch((error: Error) => this.deps.logger.error({ err: error, agent: session.identity.name }, 'agent message failed'));
  }

  private storedEntity({ namespace, name }: { namespace: string; name: string }): Promise<Entity | null> {
    const { store, resources } = this.deps;
    return store.read({ pairs: [], v2: { events: [], entities: [[namespace, name]] } }, () => resources.getEntity(namespace, name));
  }

  private open(session: AgentSession, ws: WebSocket, stored: Entity | null): void {
    const { logger } = this.deps;
    const { name, namespace, mtls } = session.identity;
    this.sessions.add(session)?.close(1000, 'replaced by a new connection of the same agent');
    this.heartbeats.add(ws);
    // Said once per connection: whether checks sent down it will carry their secrets, and why not.
    const delivery = session.secretsDelivery();
    const secrets = delivery.send ? { secrets: 'sent' } : { secrets: 'withheld', reason: delivery.reason };
    const format = session.protobuf ? 'protobuf' : 'json';
    logger.info({ agent: name, namespace, mtls, format, ...secrets, sessions: this.sessions.count() }, 'agent connected');
    session.send(MESSAGE.entityConfig, initialEntityConfig(namespace, stored));
    ws.on('pong', () => this.heartbeats.answer(ws));
    this.receiveFrames(session, ws);
    ws.on('error', (error) => {
      const tooLarge = (error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
      if (tooLarge)
        logger.warn(
          { agent: name, namespace, max: this.deps.maxMessageBytes },
          'agent message refused: larger than checkbridge.agentd.max_message_bytes; connection closed (1009)',
        );
      else logger.debug({ err: error, agent: name }, 'agent connection error');
    });
    ws.on('close', () => {
      this.heartbeats.remove(ws);
      this.sessions.remove(session);
      this.messages.ended(session);
      // Not when a newer session of the same agent replaced this one.
      if (!this.sessions.get(namespace, name) && !this.closing) this.disconnects.mark(name, () => !this.sessions.get(namespace, name));
      logger.info({ agent: name, namespace, sessions: this.sessions.count() }, 'agent disconnected');
    });
  }
}
