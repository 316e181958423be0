import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { statusClass, statusName } from './format';

export function StatusBadge({ status }: { status: number }) {
  return <span class={`badge s${statusClass(status)}`}>{statusName(status)}</span>;
}

/** History as coloured cells, oldest first; the statuses are also spelled out for screen readers. */
export function History({ history }: { history: number[] }) {
  return (
    <span class="history" role="img" aria-label={`history, oldest first: ${history.join(' ') || 'none'}`}>
      {history.map((status, i) => (
        <span key={i} class={`cell s${statusClass(status)}`} title={String(status)} />
      ))}
    </span>
  );
}

export function Notice({ kind = 'error', children }: { kind?: 'error' | 'info'; children: ComponentChildren }) {
  return (
    <p class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** Loads with `load`, again when `deps` change or `reload()` is called; keeps the last value while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { value: T | null; error: string | null; reload: () => void } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const mine = ++latest.current;
    load().then(
      (v) => mine === latest.current && (setValue(v), setError(null)),
      (e: Error) => mine === latest.current && setError(e.message),
    );
  }, [...deps, tick]);
  return { value, error, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/** Calls `fn` every `ms` while the page is shown. */
export function useEvery(fn: () => void, ms: number) {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    const timer = setInterval(() => saved.current(), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}
