// When checks run: intervals, cron, splay, subdue windows, proxy requests. What other folders may use of it.
export { attributesMatch } from './attributes.js';
export { systemClock, type Clock, type ReadClock } from './clock.js';
export { instantsBetween, nextInstant, spreadSeconds, timingOf } from './plan.js';
export { planProxyRequests } from './proxy.js';
export { splayStepMs } from './splay.js';
export { Scheduler } from './scheduler.js';
export { WEEKDAYS, inTimeWindows, isSubdued, type WindowSet } from './subdue.js';
