// Preloaded into a daemon by a test (node --import): at exit, writes the CommonJS modules it loaded to $CHECKBRIDGE_TEST_LOADED_OUT.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

const cache = createRequire(import.meta.url).cache;
process.on('exit', () => writeFileSync(process.env.CHECKBRIDGE_TEST_LOADED_OUT!, JSON.stringify(Object.keys(cache))));
