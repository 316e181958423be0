import { loadavg } from 'node:os';
import { existsSync } from 'node:fs';
import { SENSU_BACKEND } from '../helpers/sensu-backend.js';
import { median, nodeStartMs } from './load/latency.js';
import { wrkPath } from './load/wrk.js';
import { apiKey, startCheckbridge, startSensuBackend, type Server } from './load/vs-servers.js';
import { held, idle, list1000, putWrk, rate, type Figures } from './load/vs-steps.js';

const ROUNDS = Number(process.env.VS_ROUNDS ?? 3);
// The held steps' sizes: VS_AGENTS=500,2000 leaves out the long 10,000 one.
const HELD = (process.env.VS_AGENTS ?? '2000,10000').split(',').filter(Boolean).map(Number);
const RATE_AGENTS = Number(process.env.VS_RATE_AGENTS ?? 500);
const PER_AGENT = Number(process.env.VS_PER_AGENT ?? 40);
const HOLD_S = Number(process.env.VS_HOLD_S ?? 60);
const IDLE_S = Number(process.env.VS_IDLE_S ?? 20);
const GETS = Number(process.env.VS_GETS ?? 50);
// How long any one step may take to connect its agents (the real backend checks each agent's password with bcrypt): the
// step then goes on with those connected and says how many.
const CONNECT_S = Number(process.env.VS_CONNECT_S ?? 150);
const MB = 1 << 20;

/** Every step against one fresh server, started here and stopped at the end. */
async function measure(start: () => Promise<Server>): Promise<Figures> {
  const server = await start();
  try {
    const figures = await idle(server, IDLE_S);
    const key = await apiKey(server);
    Object.assign(figures, await list1000(server, key, GETS));
    if (wrkPath()) Object.assign(figures, await putWrk(server, key));
    Object.assign(figures, await rate(server, key, RATE_AGENTS, PER_AGENT, CONNECT_S));
    for (const count of HELD) Object.assign(figures, await held(server, key, count, HOLD_S, CONNECT_S, figures.idle_rss_mb!.value * MB));
    return figures;
  } catch (error) {
    throw new Error(`${server.name}: ${(error as Error).message}\n${server.log().slice(-2000)}`);
  } finally {
    await server.stop();
  }
}

const ratio = (a: number, b: number) => (b === 0 ? null : +(a / b).toFixed(3));

/**
 * checkbridge beside the real Sensu Go backend, same agents and same API load, same machine, same run. Each round starts
 * each server fresh and runs every step on it alone, the other stopped (a server left with thousands of agents' entities
 * would go on working during the other's steps); the order alternates from round to round.
 */
export async function benchVsSensuGo(report: (figure: object) => void): Promise<void> {
  if (!existsSync(SENSU_BACKEND)) {
    const reason = `the real sensu-backend is absent (${SENSU_BACKEND}); it exists beside the project only in CI and development`;
    if (process.env.CI === 'true') throw new Error(`${reason}: required in CI`);
    report({ bench: 'vs-sensu-go', skipped: reason });
    return;
  }
  const machine = { node_e0_ms_before: nodeStartMs(), load_average_before: loadavg().map((l) => +l.toFixed(2)) };
  const rounds: { checkbridge: Figures; sensu_backend: Figures }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['checkbridge', 'sensu_backend'] as const) : (['sensu_backend', 'checkbridge'] as const);
    const results: Partial<Record<'checkbridge' | 'sensu_backend', Figures>> = {};
    for (const side of order) results[side] = await measure(side === 'checkbridge' ? startCheckbridge : startSensuBackend);
    const both = results as { checkbridge: Figures; sensu_backend: Figures };
    rounds.push(both);
    for (const [figure, { unit }] of Object.entries(both.checkbridge)) {
      const [cb, sb] = [both.checkbridge[figure]!.value, both.sensu_backend[figure]?.value ?? NaN];
      report({ bench: 'vs-sensu-go', figure, round, checkbridge: cb, sensu_backend: sb, ratio: ratio(cb, sb), unit, first: order[0] });
    }
  }
  for (const [figure, { unit }] of Object.entries(rounds[0]?.checkbridge ?? {})) {
    const cb = median(rounds.map((r) => r.checkbridge[figure]!.value));
    const sb = median(rounds.map((r) => r.sensu_backend[figure]?.value ?? NaN));
    report({ bench: 'vs-sensu-go', figure, round: 'median', checkbridge: cb, sensu_backend: sb, ratio: ratio(cb, sb), unit });
  }
  report({
    bench: 'vs-sensu-go',
    figure: 'machine',
    ...machine,
    node_e0_ms_after: nodeStartMs(),
    load_average_after: loadavg().map((l) => +l.toFixed(2)),
    rounds: ROUNDS,
    held_agents: HELD,
    rate_agents: RATE_AGENTS,
    per_agent: PER_AGENT,
    hold_s: HOLD_S,
    connect_deadline_s: CONNECT_S,
  });
}
