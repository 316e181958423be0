import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { instanceFor, eventually } from '../helpers/instance.js';
import { tcpExchange } from '../helpers/net.js';

// The database file alone (without its -wal), as a copy: what a checkpoint has copied back so far. 0 while the copy
// has no schema yet (the migrations still in the WAL) or caught a checkpoint half-way.
function resultsInDatabaseFile(root: string): number {
  const copy = join(root, 'copy.db');
  copyFileSync(join(root, 'state', 'checkbridge.db'), copy);
  let db: Database.Database | null = null;
  try {
    db = new Database(copy, { readonly: true });
    return (db.prepare('SELECT COUNT(*) AS n FROM results').get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}

test('the daemon checkpoints its WAL in the background: committed results reach the database file without waiting for 1,000 pages', async (t) => {
  const client = { name: 'wal-host', address: '127.0.0.1', subscriptions: [] };
  const { socket, root } = await instanceFor(t, { 'conf.d/client.json': { client } });
  const results = Array.from({ length: 20 }, (_, i) => ({ name: `check-${i}`, output: 'x', status: 0 }));
  assert.equal(await tcpExchange(socket, JSON.stringify(results)), 'ok');
  const inFile = await eventually(
    async () => resultsInDatabaseFile(root),
    (n) => n >= 20,
    5000,
  );
  assert.ok(inFile >= 20, `the database file holds ${inFile} of 20 results`);
});
