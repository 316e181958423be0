// Module resolve hook for loaded-modules.ts, on the loader's own thread: posts every URL an import resolves to.
import type { MessagePort } from 'node:worker_threads';

type Resolved = { url: string };
let port: MessagePort | undefined;

export function initialize(data: { port: MessagePort }): void {
  port = data.port;
}

export async function resolve(specifier: string, context: unknown, next: (specifier: string, context: unknown) => Promise<Resolved>): Promise<Resolved> {
  const resolved = await next(specifier, context);
  port?.postMessage(resolved.url);
  return resolved;
}
