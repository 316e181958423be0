// Durations, cron expressions and the legacy time formats. What other folders may use of it.
export { cronWarning, nextCronInstant, parseLegacyCron, type CronSchedule } from './legacy-cron.js';
export { goCronProblem, parseGoCron, type GoCron } from './go-cron.js';
export { parseDuration } from './duration.js';
export { isValidTime, parseTime, type ParsedTime } from './parse-time.js';
