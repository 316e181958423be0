import type { FastifyInstance } from 'fastify';
import type { V2ApiDeps } from '../v2/context.js';
import { summarizeRehearsal } from '../../rehearsal/index.js';
import { PREFIX } from './deps.js';

/** The migration rehearsal's history (what `checkbridge rehearse` and the Migration page show): per check, events seen, agreeing, diverging. */
export function registerRehearsal(app: FastifyInstance, deps: V2ApiDeps): void {
  app.get(`${PREFIX}/rehearsal`, () => summarizeRehearsal(deps.store.rehearsal.report()));
}
