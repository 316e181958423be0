// A PostgreSQL state store reached through the bench's delaying proxy (its tables made first, directly), for tests of
// what the store does while round trips take long or stop: the store and the proxy, both stopped after the test.
import type { TestContext } from 'node:test';
import { StateStore } from '../../src/store/index.js';
import { startDelayProxy, type DelayProxy } from '../bench/load/pg-latency-servers.js';

export async function storeBehindProxy(t: TestContext, dsn: string, roundTripMs: number): Promise<{ store: StateStore; proxy: DelayProxy }> {
  const url = new URL(dsn);
  StateStore.openPostgres(url.href, {}).close();
  const proxy = await startDelayProxy(Number(url.port), roundTripMs);
  t.after(() => proxy.stop());
  url.port = String(proxy.port);
  const store = StateStore.openPostgres(url.href, {});
  t.after(() => store.close());
  return { store, proxy };
}
