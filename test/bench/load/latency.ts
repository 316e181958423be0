import { spawnSync } from 'node:child_process';
/** p50 and p99 of latencies in ms, named `${prefix}_p50_ms` and `${prefix}_p99_ms`. */
export function summary(latencies: number[], prefix: string): Record<string, number> {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => +(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(2);
  return { [`${prefix}_p50_ms`]: at(0.5), [`${prefix}_p99_ms`]: at(0.99) };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `node -e 0` in ms, median of 5: how loaded the machine is, so figures compare across machines and runs. */
export function nodeStartMs(): number {
  const runs = Array.from({ length: 5 }, () => {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    return performance.now() - started;
  });
  return +median(runs).toFixed(1);
}
