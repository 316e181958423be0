// A v2 row written outside any group commit (the API's entity writes, an event deleted through it): under the row's
// advisory lock, as group commits take it, so that one which read the row under its lock cannot then write over it.
import { CheckbridgeError } from '../../errors.js';
import type { BatchStatements } from './blocking-batch-reads.js';
import { PostgresQueryError } from './query-error.js';

/**
 * `write` holding the lock of the row `key` names: in the transaction open now, or in one of its own that waits for the
 * lock 250 ms at most (the thread waits with it), then answers the store busy (503, try again).
 */
export function lockedWrite<T>(
  s: Pick<BatchStatements, 'lockResults' | 'lockTimeout'>,
  inTransaction: boolean,
  transaction: (fn: () => T) => T,
  key: string,
  write: () => T,
): T {
  const lock = () => (s.lockResults.run([`v2/${key}`]), write());
  if (inTransaction) return lock();
  try {
    return transaction(() => (s.lockTimeout.run(), lock()));
  } catch (error) {
    if (!(error instanceof PostgresQueryError && error.code === '55P03')) throw error;
    throw new CheckbridgeError('CB_STORE_UNAVAILABLE', 'another server is writing this row: try again');
  }
}
