// Preloaded into a daemon by a test (node --import): at exit, writes the modules it loaded to $CHECKBRIDGE_TEST_LOADED_OUT:
// CommonJS ones from require's cache, ES modules (not in that cache) from a resolve hook posting each URL back.
import { createRequire, register } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, isMainThread } from 'node:worker_threads';

// Worker threads run the preload too: only the daemon's own thread records, or a worker exiting last would write its few.
if (isMainThread) {
  const cache = createRequire(import.meta.url).cache;
  const imported = new Set<string>();
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (url: string) => imported.add(url.startsWith('file:') ? fileURLToPath(url) : url));
  port1.unref();
  register('./loaded-modules-hooks.js', import.meta.url, { data: { port: port2 }, transferList: [port2] });
  process.on('exit', () => writeFileSync(process.env.CHECKBRIDGE_TEST_LOADED_OUT!, JSON.stringify([...new Set([...Object.keys(cache), ...imported])])));
}
