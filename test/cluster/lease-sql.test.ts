// The leadership lease on a real PostgreSQL: taken when free, renewed only by its holder in its term, released, and
// freed at once when its holder's session is gone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { ACQUIRE_SQL, CREATE_LEASE_SQL, LEASE_NAME, RELEASE_SQL, RENEW_SQL, SERVERS_SQL } from '../../src/cluster/lease-sql.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../servers/postgres.js';

const missing = postgresMissing();
if (missing && process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI: ${missing}`);
let server: PostgresServer | null = null;
const clients: pg.Client[] = [];
let databases = 0;

before(async () => {
  if (!missing) server = await startPostgres();
});
after(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  server?.stop();
});

/** A fresh database with the lease table, and a way to connect to it as a named server. */
async function election() {
  const database = `lease_${++databases}`;
  await server!.query(`CREATE DATABASE ${database}`);
  const connect = async (application: string) => {
    const client = new pg.Client({ connectionString: server!.url('postgres', database), application_name: application });
    await client.connect();
    clients.push(client);
    return client;
  };
  await (await connect('setup')).query(CREATE_LEASE_SQL);
  return connect;
}

const term = (result: pg.QueryResult) => (result.rows[0] as { term: string } | undefined)?.term ?? null;

test('a free lease is taken in term 1; another server cannot take it while it is held', async (t) => {
  if (!server) return void t.skip(missing!);
  const connect = await election();
  const a = await connect('checkbridge-a');
  const b = await connect('checkbridge-b');
  assert.equal(term(await a.query(ACQUIRE_SQL, [LEASE_NAME, 'a', 60_000])), '1');
  assert.equal(term(await b.query(ACQUIRE_SQL, [LEASE_NAME, 'b', 60_000])), null);
  assert.equal(term(await a.query(ACQUIRE_SQL, [LEASE_NAME, 'a', 60_000])), '2', 'its holder takes it again, in a new term');
});

test('only the holder renews, in the term it won, before expiry; a released lease goes to the next server', async (t) => {
  if (!server) return void t.skip(missing!);
  const connect = await election();
  const a = await connect('checkbridge-a');
  const b = await connect('checkbridge-b');
  const won = term(await a.query(ACQUIRE_SQL, [LEASE_NAME, 'a', 60_000]))!;
  assert.equal(term(await a.query(RENEW_SQL, [LEASE_NAME, 'a', won, 60_000])), won);
  assert.equal(term(await b.query(RENEW_SQL, [LEASE_NAME, 'b', won, 60_000])), null, 'not its lease');
  assert.equal(term(await a.query(RENEW_SQL, [LEASE_NAME, 'a', String(Number(won) + 1), 60_000])), null, 'not its term');
  await b.query(RELEASE_SQL, [LEASE_NAME, 'b', won]);
  assert.equal(term(await b.query(ACQUIRE_SQL, [LEASE_NAME, 'b', 60_000])), null, 'a release by another server does nothing');
  await a.query(RELEASE_SQL, [LEASE_NAME, 'a', won]);
  const next = term(await b.query(ACQUIRE_SQL, [LEASE_NAME, 'b', 60_000]));
  assert.equal(next, String(Number(won) + 1));
  assert.equal(term(await a.query(RENEW_SQL, [LEASE_NAME, 'a', won, 60_000])), null, 'a lease lost stays lost');
});

test('an expired lease is free', async (t) => {
  if (!server) return void t.skip(missing!);
  const connect = await election();
  const a = await connect('checkbridge-a');
  const b = await connect('checkbridge-b');
  const won = term(await a.query(ACQUIRE_SQL, [LEASE_NAME, 'a', 0]))!;
  assert.equal(term(await a.query(RENEW_SQL, [LEASE_NAME, 'a', won, 60_000])), null, 'past its expiry it cannot be renewed');
  assert.equal(term(await b.query(ACQUIRE_SQL, [LEASE_NAME, 'b', 60_000])), String(Number(won) + 1));
});

test('a holder whose session is gone frees the lease at once; the servers list says who leads', async (t) => {
  if (!server) return void t.skip(missing!);
  const connect = await election();
  const a = await connect('checkbridge-a');
  const b = await connect('checkbridge-b');
  await a.query(ACQUIRE_SQL, [LEASE_NAME, 'a', 60_000]);
  const servers = await b.query(SERVERS_SQL, [LEASE_NAME, 'checkbridge-%']);
  assert.deepEqual(
    servers.rows.map((r: { application: string; leader: boolean }) => [r.application, r.leader]),
    [
      ['checkbridge-a', true],
      ['checkbridge-b', false],
    ],
  );
  await a.end();
  // The ended session leaves pg_stat_activity once its backend has exited.
  for (let i = 0; i < 200; i++) {
    const left = await b.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'checkbridge-a'");
    if ((left.rows[0] as { n: number }).n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(term(await b.query(ACQUIRE_SQL, [LEASE_NAME, 'b', 60_000])), '2');
});
