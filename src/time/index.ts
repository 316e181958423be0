// Durations, cron expressions and the legacy time formats. What other folders may use of it.
export { cronWarning, nextCronInstant, parseCron } from './cron.js';
export { parseDuration } from './duration.js';
export { isValidTime, parseTime, type ParsedTime } from './parse-time.js';
