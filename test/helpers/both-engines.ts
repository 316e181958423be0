// A state store on each engine, for tests that hold both to one behaviour: SQLite in a private directory, PostgreSQL
// on a server started once for the test file (its tests skipped, saying why, when PostgreSQL is absent; required
// under CI=true).
import { after, type TestContext } from 'node:test';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { postgresMissing, startPostgres } from '../servers/postgres.js';
import { makeTree, removeTree } from './tree.js';

const missing = postgresMissing();
if (missing && process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);
const server = missing ? null : await startPostgres();
after(() => server?.stop());

export function sqliteStore(): StateStore {
  const dir = makeTree({});
  after(() => removeTree(dir));
  return StateStore.open(join(dir, 'state', 'checkbridge.db'));
}

/** A store on a new database `database` of the file's PostgreSQL; null (the test skipped) when there is none. */
export async function postgresStore(t: TestContext, database: string): Promise<StateStore | null> {
  if (!server) return (t.skip(missing!), null);
  await server.query(`CREATE DATABASE ${database}`);
  return StateStore.openPostgres(server.url('postgres', database), {});
}
