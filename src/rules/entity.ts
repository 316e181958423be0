// An Entity's rules (Sensu Go's Entity.Validate, the name aside): its class is a name.
import { sensuNameProblem } from './names.js';
import type { Json } from '../json.js';

/** The first reason an Entity's spec is invalid, or null. */
export const entityProblem = (e: Json): string | null => sensuNameProblem(e.entity_class, 'entity_class');
