import { createServer, type Server, type Socket, type AddressInfo } from 'node:net';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import type { CheckResult, ResultIntake } from '../execute/index.js';
import { prepareResult, EntityLimitError } from '../legacy/index.js';
import { CheckbridgeError } from '../errors.js';
import { ByteBudget, MessageReader } from './socket-buffer.js';
import type { ReadClock } from '../schedule/index.js';

export interface SocketOptions {
  readonly bind: string;
  readonly port: number;
  readonly intake: ResultIntake;
  readonly logger: Logger;
  /** The local client's name and signature: results from the socket are the local client's. */
  readonly client: () => { name: string; signature?: string | undefined };
  readonly clock: ReadClock;
  readonly maxMessageBytes?: number | undefined;
  readonly idleTimeoutMs?: number;
  /** checkbridge.socket_buffer_limit: bytes all TCP connections may hold at once (unfinished messages). */
  readonly bufferLimitBytes?: number | undefined;
  /** checkbridge.socket_message_timeout (in ms here): a message must be complete this long after its first byte. */
  readonly messageDeadlineMs?: number | undefined;
}

/** The local client as the socket's results name it: its name, and its signature when it has one. */
export function localClientOf(settings: Settings): { name: string; signature?: string | undefined } {
  return { name: String(settings.client.name), signature: settings.client.signature as string | undefined };
}

export interface SocketListeners {
  readonly tcp: AddressInfo;
  readonly udp: AddressInfo;
  close(): Promise<void>;
}

const WATCHDOG_MS = 500;
// After the answer, the time a peer gets to read it before a connection it keeps open is dropped.
const LINGER_MS = 2000;
const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
const DEFAULT_BUFFER_LIMIT_BYTES = 64 * 1024 * 1024;
const DEFAULT_MESSAGE_DEADLINE_MS = 10_000;

/**
 * Turns one parsed JSON value (object or array) into results; the first invalid one stops the rest. The valid ones
 * are submitted together, so they share a group commit, and the answer waits for all of them (an `ok` is committed).
 */
async function submitAll(value: unknown, options: SocketOptions): Promise<string | null> {
  const items = Array.isArray(value) ? value : [value];
  const client = options.client();
  const now = Math.floor(options.clock.now() / 1000);
  const results: CheckResult[] = [];
  let failure: string | null = null;
  for (const item of items) {
    const prepared = prepareResult(item, now);
    if (!prepared.ok) {
      failure = prepared.message;
      break;
    }
    results.push({ client: client.name, check: { ...prepared.check, issued: now }, ...(client.signature ? { signature: client.signature } : {}) });
  }
  const settled = await Promise.allSettled(results.map((result) => options.intake.submit(result)));
  const rejected = settled.find((outcome) => outcome.status === 'rejected');
  if (rejected) throw rejected.reason;
  return failure;
}

function handleTcp(socket: Socket, options: SocketOptions, budget: ByteBudget): void {
  const log = options.logger;
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const reader = new MessageReader(budget, max);
  let bytes = 0;
  let watchdog: NodeJS.Timeout | null = null;
  let deadline: NodeJS.Timeout | null = null;
  let linger: NodeJS.Timeout | null = null;
  let finished = false;
  const stopTimers = () => {
    if (watchdog) clearTimeout(watchdog);
    if (deadline) clearTimeout(deadline);
  };
  // Done reading: nothing more is kept.
  const finish = () => {
    finished = true;
    stopTimers();
    reader.release();
  };
  // A peer that keeps the connection open after the answer is dropped once it has had time to read it.
  const answer = (text: string) => {
    if (socket.destroyed) return;
    socket.end(text);
    linger = setTimeout(() => socket.destroy(), LINGER_MS);
  };
  const reply = (text: string) => {
    if (finished) return;
    finish();
    answer(text);
  };
  const discard = () => {
    log.warn({ remote: socket.remoteAddress }, 'discarding data buffer for sender and closing connection');
    reply('invalid');
  };
  socket.setTimeout(options.idleTimeoutMs ?? 30_000, () => {
    if (finished) return;
    log.warn({ remote: socket.remoteAddress }, 'closing idle client socket connection');
    reply('invalid');
  });
  socket.on('error', (error) => log.debug({ err: error }, 'client socket connection error'));
  // The sender finished and what it sent does not parse: no need to wait for the watchdog.
  socket.on('end', () => {
    if (finished) return;
    if (bytes > 0) log.warn({ remote: socket.remoteAddress }, 'discarding data buffer for sender and closing connection');
    reply('invalid');
  });
  socket.on('close', () => {
    stopTimers();
    if (linger) clearTimeout(linger);
    reader.release();
  });
  socket.on('data', (chunk: Buffer) => {
    if (finished) return;
    // Legacy waits for 0.5 s of silence; a sender that keeps trickling still has to finish in time.
    deadline ??= setTimeout(() => {
      log.warn({ remote: socket.remoteAddress, bytes }, 'client socket message not complete in time, closing connection');
      reply('invalid');
    }, options.messageDeadlineMs ?? DEFAULT_MESSAGE_DEADLINE_MS);
    bytes += chunk.length;
    if (bytes > max) {
      log.error({ bytes, max }, 'message exceeds the configured max message size');
      return reply('invalid');
    }
    const reading = reader.push(chunk);
    if (reading.kind === 'over-budget') {
      log.error({ bytes, buffered: budget.used, limit: budget.limit }, 'client socket buffers full, refusing message');
      return reply('invalid');
    }
    if (reading.kind === 'ping') return reply('pong');
    if (reading.kind !== 'value') {
      // Possibly incomplete: wait for more, and give up after 0.5 s of silence (legacy watchdog).
      if (watchdog) clearTimeout(watchdog);
      watchdog = setTimeout(discard, WATCHDOG_MS);
      return;
    }
    finish();
    submitAndAnswer(reading.value, options, answer);
  });
}

/** Answers a complete message once its results are committed: `ok`, or `invalid` when one is refused or fails. */
function submitAndAnswer(value: unknown, options: SocketOptions, answer: (text: string) => void): void {
  const log = options.logger;
  submitAll(value, options)
    .then((failure) => {
      if (failure) log.error({ reason: failure }, 'failed to process check result from socket');
      answer(failure ? 'invalid' : 'ok');
    })
    .catch((error) => {
      // The intake logs an entity-limit refusal once per client name; a line per result would flood.
      if (!(error instanceof EntityLimitError)) log.error({ err: error }, 'failed to process check result from socket');
      answer('invalid');
    });
}

function handleUdp(message: Buffer, options: SocketOptions): void {
  const text = message.toString('utf8');
  if (text.trim() === 'ping') return;
  if (message.length > (options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES)) {
    options.logger.error({ bytes: message.length }, 'message exceeds the configured max message size');
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    options.logger.error({ reason: (error as Error).message }, 'failed to process check result from socket');
    return;
  }
  submitAll(value, options)
    .then((failure) => failure && options.logger.error({ reason: failure }, 'failed to process check result from socket'))
    .catch((error) => error instanceof EntityLimitError || options.logger.error({ err: error }, 'failed to process check result from socket'));
}

/** The legacy client socket on TCP and UDP: `ok`, `invalid`, `pong`; UDP never replies. */
export async function listenClientSocket(options: SocketOptions): Promise<SocketListeners> {
  const log = options.logger.child({ component: 'client-socket' });
  const opts = { ...options, logger: log };
  // allowHalfOpen: a sender may finish writing before its answer is ready; the answer still goes out.
  const budget = new ByteBudget(options.bufferLimitBytes ?? DEFAULT_BUFFER_LIMIT_BYTES);
  const tcp: Server = createServer({ allowHalfOpen: true }, (socket) => handleTcp(socket, opts, budget));
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', (error: NodeJS.ErrnoException) =>
      reject(new CheckbridgeError('CB_LISTEN', `client socket ${options.bind}:${options.port}: ${error.code ?? error.message}`)),
    );
    tcp.listen(options.port, options.bind, () => resolve());
  });
  const tcpAddress = tcp.address() as AddressInfo;
  const udp: UdpSocket = createSocket(options.bind.includes(':') ? 'udp6' : 'udp4');
  udp.on('message', (message) => handleUdp(message, opts));
  udp.on('error', (error) => log.error({ err: error }, 'client UDP socket error'));
  // UDP takes the same port as TCP (legacy), so port 0 resolves to TCP's choice.
  await new Promise<void>((resolve, reject) => {
    udp.once(
      'error',
      (error: NodeJS.ErrnoException) =>
        void tcp.close(() => reject(new CheckbridgeError('CB_LISTEN', `client UDP socket ${options.bind}:${tcpAddress.port}: ${error.code ?? error.message}`))),
    );
    udp.bind(tcpAddress.port, options.bind, () => resolve());
  });
  const udpAddress = udp.address();
  log.info({ tcp: `${tcpAddress.address}:${tcpAddress.port}`, udp: `${udpAddress.address}:${udpAddress.port}` }, 'client socket listening');
  return {
    tcp: tcpAddress,
    udp: udpAddress,
    close: async () => {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}
