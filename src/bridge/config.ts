import { readFileSync } from 'node:fs';
import { CheckbridgeError } from '../errors.js';

export interface BridgeConfig {
  readonly url: string;
  readonly apiKey: string;
  readonly namespace: string;
  /** Seconds for one PUT, connection included. */
  readonly timeout: number;
  readonly concurrency: number;
  readonly tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
}

interface RawBridge {
  url?: string;
  api_key?: string;
  namespace?: string;
  timeout?: number;
  concurrency?: number;
  tls?: { ca_cert?: string; client_cert?: string; client_key?: string };
}

/** The `bridge` settings block, overridden by --bridge-url/--bridge-api-key and CHECKBRIDGE_BRIDGE_URL/_API_KEY; null when off. */
export function bridgeConfigOf(raw: unknown, flags: { bridgeUrl?: string; bridgeApiKey?: string }, env = process.env): BridgeConfig | null {
  const block = (raw && typeof raw === 'object' ? raw : {}) as RawBridge;
  const url = flags.bridgeUrl ?? env.CHECKBRIDGE_BRIDGE_URL ?? block.url;
  if (!url) return null;
  const apiKey = flags.bridgeApiKey ?? env.CHECKBRIDGE_BRIDGE_API_KEY ?? block.api_key;
  if (!apiKey)
    throw new CheckbridgeError(
      'CB_CLI_USAGE',
      'bridge: an api_key is required with a url (bridge.api_key, --bridge-api-key-file, CHECKBRIDGE_BRIDGE_API_KEY_FILE, CHECKBRIDGE_BRIDGE_API_KEY, --bridge-api-key)',
    );
  const read = (path: string | undefined, what: string) => {
    if (!path) return undefined;
    try {
      return readFileSync(path);
    } catch (error) {
      throw new CheckbridgeError('CB_CLI_USAGE', `bridge tls ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  };
  const tls = block.tls
    ? { ca: read(block.tls.ca_cert, 'ca_cert'), cert: read(block.tls.client_cert, 'client_cert'), key: read(block.tls.client_key, 'client_key') }
    : undefined;
  return {
    url: url.replace(/\/+$/, ''),
    apiKey,
    namespace: block.namespace ?? 'default',
    timeout: typeof block.timeout === 'number' && block.timeout > 0 ? block.timeout : 10,
    concurrency: Number.isInteger(block.concurrency) && (block.concurrency as number) > 0 ? (block.concurrency as number) : 8,
    ...(tls ? { tls } : {}),
  };
}
