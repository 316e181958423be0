// Units of work in flight together: of disjoint keys at once (up to the connections), of a shared key in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UnitScheduler } from '../../../src/store/postgres/unit-scheduler.js';

/** A unit that records its start and ends when told. */
function gate() {
  const started: string[] = [];
  const enders = new Map<string, () => void>();
  const unit = (name: string) => (lane: number) => {
    started.push(`${name}@${lane}`);
    return new Promise<string>((resolve) => enders.set(name, () => resolve(name)));
  };
  return { started, unit, end: (name: string) => enders.get(name)!() };
}
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('units of disjoint keys run together, one per connection; a third waits for a free connection', async () => {
  const scheduler = new UnitScheduler(2);
  const { started, unit, end } = gate();
  const done = [scheduler.run(new Set(['a']), unit('A')), scheduler.run(new Set(['b']), unit('B')), scheduler.run(new Set(['c']), unit('C'))];
  await turns();
  assert.deepEqual(started, ['A@0', 'B@1']);
  end('B');
  await turns();
  assert.deepEqual(started, ['A@0', 'B@1', 'C@1'], 'C takes the connection B left');
  end('A');
  end('C');
  assert.deepEqual(await Promise.all(done), ['A', 'B', 'C']);
  assert.equal(scheduler.size, 0);
});

test('a unit sharing a key with an earlier one waits for it, and one after it that shares its key waits for both', async () => {
  const scheduler = new UnitScheduler(3);
  const { started, unit, end } = gate();
  const done = [
    scheduler.run(new Set(['a', 'x']), unit('A')),
    scheduler.run(new Set(['b', 'x']), unit('B')),
    scheduler.run(new Set(['b']), unit('C')),
    scheduler.run(new Set(['d']), unit('D')),
  ];
  await turns();
  assert.deepEqual(started, ['A@0', 'D@1'], 'B shares x with A, C shares b with B: both wait; D goes');
  end('A');
  await turns();
  assert.deepEqual(started.slice(2), ['B@0']);
  end('B');
  await turns();
  assert.deepEqual(started.slice(3), ['C@0']);
  end('C');
  end('D');
  await Promise.all(done);
});

test('a unit naming no key goes alone: after every earlier unit, before every later one', async () => {
  const scheduler = new UnitScheduler(3);
  const { started, unit, end } = gate();
  const done = [scheduler.run(new Set(['a']), unit('A')), scheduler.run(null, unit('K')), scheduler.run(new Set(['b']), unit('B'))];
  await turns();
  assert.deepEqual(started, ['A@0']);
  end('A');
  await turns();
  assert.deepEqual(started, ['A@0', 'K@0']);
  end('K');
  await turns();
  assert.deepEqual(started, ['A@0', 'K@0', 'B@0']);
  end('B');
  await Promise.all(done);
});

test('a unit that fails frees its connection and its keys', async () => {
  const scheduler = new UnitScheduler(1);
  const failed = scheduler.run(new Set(['a']), () => Promise.reject(new Error('lost')));
  await assert.rejects(failed, /lost/);
  assert.equal(await scheduler.run(new Set(['a']), async (lane) => lane), 0);
});
