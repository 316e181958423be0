// Preloaded into a daemon by a test (node --import): at exit, writes the CommonJS modules it loaded to $CHECKBRIDGE_TEST_LOADED_OUT.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const cache = createRequire(import.meta.url).cache;
// Worker threads run the preload too: only the daemon's own thread writes, or a worker exiting last would write its few.
if (isMainThread) process.on('exit', () => writeFileSync(process.env.CHECKBRIDGE_TEST_LOADED_OUT!, JSON.stringify(Object.keys(cache))));
