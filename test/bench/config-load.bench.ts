import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { once, EventEmitter } from 'node:events';
import { loadSettings } from '../../src/config/load-settings.js';
import { watchSettings } from '../../src/watch/settings-watcher.js';
import { createLogger } from '../../src/log.js';
import { makeTree, removeTree } from '../helpers/tree.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function checkFile(file: number, perFile: number, interval = 60): object {
  const checks: Record<string, object> = {};
  for (let i = 0; i < perFile; i++) {
    checks[`check_${file}_${i}`] = {
      command: `/usr/lib/nagios/plugins/check_disk -w :::disk.warning|80::: -p /data${i}`,
      subscribers: ['linux', `team-${i % 7}`],
      interval,
      timeout: 30,
      handlers: ['default'],
      subdue: { days: { all: [{ begin: '10:00 PM', end: '6:00 AM' }] } },
      hooks: { critical: { command: 'ps aux' } },
    };
  }
  return { checks };
}

export async function benchConfigLoad(report: (figure: object) => void): Promise<void> {
  const files = 1000;
  const perFile = 10;
  const tree: Record<string, object> = {};
  for (let f = 0; f < files; f++) tree[`team${f % 10}/checks-${f}.json`] = checkFile(f, perFile);
  const root = makeTree(tree);
  const sources = { configFile: null, configDirs: [root] };
  try {
    loadSettings(sources, {}); // warm-up: schema compile, page cache
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      const outcome = loadSettings(sources, {});
      times.push(performance.now() - start);
      if (!outcome.settings || Object.keys(outcome.settings.checks).length !== files * perFile) throw new Error('bench load failed');
    }
    const seconds = median(times) / 1000;
    report({
      bench: 'config.load',
      files,
      checks: files * perFile,
      median_s: +seconds.toFixed(3),
      files_per_s: Math.round(files / seconds),
      checks_per_s: Math.round((files * perFile) / seconds),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    });

    const initial = loadSettings(sources, {});
    const watcher = watchSettings({ sources, initial: { ...initial, settings: initial.settings! }, logger: createLogger('silent'), debounceMs: 50, env: {} });
    await watcher.ready();
    const events = new EventEmitter();
    watcher.onChange(() => events.emit('change'));
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const pending = once(events, 'change');
      const start = performance.now();
      writeFileSync(join(root, 'team3', 'checks-3.json'), JSON.stringify(checkFile(3, perFile, 61 + i)));
      await pending;
      latencies.push(performance.now() - start);
    }
    await watcher.close();
    report({
      bench: 'config.edit_to_publish',
      files,
      checks: files * perFile,
      debounce_ms: 50,
      median_ms: Math.round(median(latencies)),
      max_ms: Math.round(Math.max(...latencies)),
    });
  } finally {
    removeTree(root);
  }
}
