// On the real Sensu Go 6.12 agent: a round_robin check runs each interval on exactly one agent of its
// subscription, and the agents take turns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../helpers/instance.js';
import { agentSkipReason, startAgent, agentFlags } from '../helpers/sensu-agent.js';
import { v2CheckInstance, eventWhere, issuedSeries, refusals, HOST } from './v2-checks-helpers.js';

const skip = agentSkipReason();

test('a round_robin check runs each interval on exactly one of two agents, and they take turns', { skip, timeout: 120_000 }, async (t) => {
  const { agentd, event, put } = await v2CheckInstance(t);
  await put('checks', {
    metadata: { name: 'turns' },
    command: 'echo my turn',
    interval: 1,
    publish: true,
    round_robin: true,
    subscriptions: ['pool'],
    handlers: [],
  });
  const agents = await Promise.all(['rr-a', 'rr-b'].map((name) => startAgent(t, agentd, name, [...agentFlags(), '--subscriptions', 'pool'])));
  await Promise.all(agents.map((a) => a.waitFor((l) => l.msg === 'successfully received the initial entity config')));
  // From the next second on both are members of the ring.
  const from = Math.floor(Date.now() / 1000) + 1;

  const seen = new Map<number, Set<string>>();
  await eventually(
    async () => {
      const replies = await Promise.all(['rr-a', 'rr-b'].map(async (name) => [name, await event(name, 'turns')] as const));
      for (const [name, reply] of replies) {
        const issued = Number(reply.body?.check?.issued);
        if (reply.status === 200 && issued >= from) seen.set(issued, (seen.get(issued) ?? new Set()).add(name));
      }
      return seen;
    },
    (s) => s.size >= 10,
    40_000,
  );
  const issued = [...seen.keys()].sort((a, b) => a - b);
  assert.ok(issued.length >= 10, `ten intervals seen: ${JSON.stringify([...seen].map(([k, v]) => [k, [...v]]))}`);
  // Every interval ran somewhere (each agent's event is read several times per interval)...
  assert.deepEqual(
    issued,
    issued.map((_, i) => issued[0]! + i),
    `no interval without a runner: ${JSON.stringify(issued)}`,
  );
  // ...on exactly one agent.
  for (const at of issued) assert.equal(seen.get(at)!.size, 1, `interval ${at} ran on ${[...seen.get(at)!].join(' and ')}`);
  const runner = (at: number) => [...seen.get(at)!][0];
  // Turns: two consecutive intervals never run on the same agent, and both agents run.
  for (let i = 1; i < issued.length; i++) assert.notEqual(runner(issued[i]!), runner(issued[i - 1]!), `intervals ${issued[i - 1]} and ${issued[i]}`);
  assert.deepEqual(new Set(issued.map(runner)), new Set(['rr-a', 'rr-b']));
  assert.deepEqual(agents.flatMap(refusals), [], 'no request refused by an agent');
});

test('when one agent of a round_robin ring goes away, the other runs every interval: none is lost to the gone one', { skip, timeout: 120_000 }, async (t) => {
  const { agentd, event, put } = await v2CheckInstance(t);
  await put('checks', {
    metadata: { name: 'turns' },
    command: 'echo my turn',
    interval: 1,
    publish: true,
    round_robin: true,
    subscriptions: ['pool'],
    handlers: [],
  });
  const [stays, leaves] = await Promise.all(['rr-stays', 'rr-leaves'].map((name) => startAgent(t, agentd, name, [...agentFlags(), '--subscriptions', 'pool'])));
  await Promise.all([stays!, leaves!].map((a) => a.waitFor((l) => l.msg === 'successfully received the initial entity config')));
  await eventWhere(event, 'rr-leaves', 'turns', () => true);
  await leaves!.stop('SIGKILL');
  // Its connection closes with the process: from the next second on, the ring is the one left.
  const from = Math.floor(Date.now() / 1000) + 2;
  const series = await issuedSeries(event, 'rr-stays', 'turns', (s) => s.length >= 6, from);
  assert.deepEqual(
    series,
    series.map((_, i) => series[0]! + i),
    `every interval on rr-stays: ${JSON.stringify(series)}`,
  );
  assert.deepEqual(refusals(stays!), [], 'no request refused by the agent');
});

test(
  'a round_robin check turns over two agents and a legacy client of its subscription: each interval on exactly one of the three',
  { skip, timeout: 120_000 },
  async (t) => {
    // The in-process legacy client is a member of `pool` too: one ring over both kinds, each sent its own wire format.
    const { agentd, event, put } = await v2CheckInstance(
      t,
      [],
      {},
      { ...HOST, 'conf.d/config.json': { ...HOST['conf.d/config.json'], client: { ...HOST['conf.d/config.json'].client, subscriptions: ['pool'] } } },
    );
    await put('checks', {
      metadata: { name: 'turns' },
      command: 'echo my turn',
      interval: 1,
      publish: true,
      round_robin: true,
      subscriptions: ['pool'],
      handlers: [],
    });
    const agents = await Promise.all(['rr-a', 'rr-b'].map((name) => startAgent(t, agentd, name, [...agentFlags(), '--subscriptions', 'pool'])));
    await Promise.all(agents.map((a) => a.waitFor((l) => l.msg === 'successfully received the initial entity config')));
    const members = ['cb-host', 'rr-a', 'rr-b'];
    const from = Math.floor(Date.now() / 1000) + 1;
    const seen = new Map<number, Set<string>>();
    await eventually(
      async () => {
        const replies = await Promise.all(members.map(async (name) => [name, await event(name, 'turns')] as const));
        for (const [name, reply] of replies) {
          const issued = Number(reply.body?.check?.issued);
          if (reply.status === 200 && issued >= from) seen.set(issued, (seen.get(issued) ?? new Set()).add(name));
        }
        return seen;
      },
      (s) => s.size >= 12,
      60_000,
    );
    const issued = [...seen.keys()].sort((a, b) => a - b);
    assert.ok(issued.length >= 12, `twelve intervals seen: ${JSON.stringify([...seen].map(([k, v]) => [k, [...v]]))}`);
    for (const at of issued) assert.equal(seen.get(at)!.size, 1, `interval ${at} ran on ${[...seen.get(at)!].join(' and ')}`);
    const runner = (at: number) => [...seen.get(at)!][0];
    // All three take turns: no member runs two intervals in a row.
    for (let i = 1; i < issued.length; i++)
      if (issued[i] === issued[i - 1]! + 1) assert.notEqual(runner(issued[i]!), runner(issued[i - 1]!), `intervals ${issued[i - 1]} and ${issued[i]}`);
    assert.deepEqual(new Set(issued.map(runner)), new Set(members));
    assert.deepEqual(agents.flatMap(refusals), [], 'no request refused by an agent');
  },
);
