// Build step after build-schemas: bundles `validate` (main, the command, config loading, commander) into one CommonJS file
// beside main.js, which bin/checkbridge runs with V8's code cache: one file to load instead of ~60 ES modules to resolve.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'vite';

const dist = new URL('../dist/', import.meta.url).pathname;
const dir = `${dist}src/cli/`;
const bundle = `${dir}validate.bundle.cjs`;
// Every other command stays its own module, imported from dist as main.js would.
const OWN = new Set(['./validate.js', './legacy-args.js', './help-environment.js']);

// commander spawns only for executable subcommands, which checkbridge has none of: child_process (and net) load on first spawn.
const lazyChildProcess = {
  name: 'lazy-child-process',
  transform(code, id) {
    if (!id.endsWith('/commander/lib/command.js')) return null;
    const eager = "const childProcess = require('node:child_process');";
    if (!code.includes(eager)) throw new Error(`build-cli: ${id} no longer requires child_process as expected`);
    return code.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };");
  },
};

rmSync(`${bundle}.cache`, { force: true });
const output = await build({
  configFile: false,
  logLevel: 'warn',
  plugins: [lazyChildProcess],
  build: {
    ssr: `${dir}main.js`,
    outDir: dir,
    emptyOutDir: false,
    minify: false,
    sourcemap: false,
    target: 'node20',
    rollupOptions: {
      external: (id, importer) => id.startsWith('node:') || (importer?.endsWith('/cli/main.js') && id.startsWith('./') && !OWN.has(id)),
      output: { format: 'cjs', entryFileNames: 'validate.bundle.cjs', codeSplitting: false },
    },
  },
  ssr: { noExternal: true },
});
// The dist modules it holds, so bin/checkbridge falls back to them once tsc rewrites any; and the packages it holds.
const ids = output.output[0].moduleIds;
const modules = ids.filter((id) => id.startsWith(dist)).map((id) => relative(dist, id));
const packages = ids.filter((id) => id.includes('/node_modules/')).map((id) => id.slice(id.lastIndexOf('/node_modules/') + 1));
writeFileSync(`${bundle}.json`, JSON.stringify({ modules, packages }) + '\n');

// One run over a typical check writes the code cache with the functions validate compiles.
const root = mkdtempSync(join(tmpdir(), 'checkbridge-build-'));
try {
  mkdirSync(join(root, 'conf.d'));
  const check = { command: 'check-disk -w 80 -p /data', subscribers: ['linux'], interval: 60, timeout: 30, handlers: ['default'] };
  const subdue = { days: { all: [{ begin: '10:00 PM', end: '6:00 AM' }] } };
  const config = {
    checks: { disk: { ...check, subdue, hooks: { critical: { command: 'ps aux' } } } },
    handlers: { default: { type: 'pipe', command: 'cat' } },
  };
  writeFileSync(join(root, 'conf.d', 'checks.json'), JSON.stringify(config));
  const bin = new URL('../bin/checkbridge', import.meta.url).pathname;
  const run = spawnSync(process.execPath, [bin, 'validate', '--no-config-file', '-d', join(root, 'conf.d')], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`build-cli: validate of the sample failed (exit ${run.status}): ${run.stdout}${run.stderr}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
