// Each core/v2 kind's own rules in one table (its name aside: every kind's is the name rule), for every door and `compile`.
import { checkConfigProblem } from './check.js';
import { entityProblem } from './entity.js';
import { filterProblem } from './filter.js';
import { handlerProblem } from './handler.js';
import { hookProblem } from './hook.js';
import { mutatorProblem } from './mutator.js';
import { pipelineProblem } from './pipeline.js';
import { silencedProblem } from './silenced.js';
import type { Json } from '../json.js';

/** The first reason a resource's spec is invalid, or null. */
export type KindRule = (spec: Json) => string | null;

export const KIND_RULES: Readonly<Record<string, KindRule>> = {
  CheckConfig: checkConfigProblem,
  HookConfig: hookProblem,
  Handler: handlerProblem,
  Mutator: mutatorProblem,
  EventFilter: filterProblem,
  Pipeline: pipelineProblem,
  Entity: entityProblem,
  Silenced: silencedProblem,
};

/** The first reason a resource of `type` is invalid by its kind's rules, or null (a kind without rules of its own). */
export const kindProblem = (type: string, spec: Json): string | null => KIND_RULES[type]?.(spec) ?? null;
