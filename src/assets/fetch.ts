// Downloads one asset archive into a file, hashing as it arrives; the caller unpacks only a verified file.
import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import type * as Undici from 'undici';
import type { AssetBuild } from './definitions.js';
import { checkServerIdentity } from '../tls/index.js';
import { systemCas } from '../tls/index.js';
import { AssetTooLarge } from './limits.js';

// The HTTP client is loaded by the first request: a daemon that never makes one never loads it.
const load = createRequire(import.meta.url);
const undici = () => load('undici') as typeof Undici;

/** The download did not hash to the configured sha512 (a truncated download lands here too). */
export class ChecksumMismatch extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
    readonly bytes: number,
    readonly transport: Error | null,
  ) {
    super(`sha512 mismatch: the download (${bytes} bytes${transport ? `, ended early: ${transport.message}` : ''}) does not match the asset's sha512`);
  }
}

const dispatchers = new Map<string, Dispatcher>();

/** Certificates checked against the system store plus the configured CA file; TLS 1.2 or later only. */
export function dispatcherFor(caFile: string | undefined): Dispatcher {
  const key = caFile ?? '';
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    const ca = [...systemCas(), ...(caFile ? [readFileSync(caFile, 'utf8')] : [])];
    dispatcher = new (undici().Agent)({ connect: { ca, minVersion: 'TLSv1.2', rejectUnauthorized: true, checkServerIdentity } }).compose(
      undici().interceptors.redirect({ maxRedirections: 5 }),
    );
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}

/** Stops reading a body we refuse: its abort ('Request aborted') is ours, not an error to throw out of the process. */
function abandon(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Writes the build's archive to `file` and resolves once its sha512 matched; rejects with the reason otherwise. */
export async function download(build: AssetBuild, file: string, dispatcher: Dispatcher, maxBytes: number): Promise<void> {
  // Any url is stored, as in Sensu Go; only http and https are fetched, never a local file or another scheme.
  if (!/^https?:\/\//i.test(build.url)) throw new Error(`url ${JSON.stringify(build.url)} is not an http or https URL: not fetched`);
  const response = await undici().request(build.url, { dispatcher, headers: { ...build.headers }, headersTimeout: 30_000, bodyTimeout: 60_000 });
  if (response.statusCode < 200 || response.statusCode > 299) {
    await response.body.dump();
    throw new Error(`HTTP ${response.statusCode} from ${build.url}`);
  }
  // Refused before a byte is written when the server says so; counted as it arrives otherwise.
  const announced = Number(response.headers['content-length']);
  if (Number.isFinite(announced) && announced > maxBytes) {
    abandon(response.body);
    throw new AssetTooLarge(`the download (${announced} bytes announced) exceeds`, 'max_download_bytes', maxBytes);
  }
  const hash = createHash('sha512');
  const out = createWriteStream(file);
  let bytes = 0;
  let transport: Error | null = null;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) break;
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } catch (error) {
    transport = error as Error;
  }
  out.end();
  await once(out, 'close');
  if (bytes > maxBytes) {
    abandon(response.body);
    throw new AssetTooLarge('the download exceeds', 'max_download_bytes', maxBytes);
  }
  const actual = hash.digest('hex');
  if (actual !== build.sha512) throw new ChecksumMismatch(build.sha512, actual, bytes, transport);
  if (transport) throw transport;
}
