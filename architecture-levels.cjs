// The levels of src/ (docs/development.md "Layering"): each imports only its own level or lower.
const LEVELS = [
  ['errors.ts', 'name-limits.ts', 'json-depth.ts', 'json.ts', 'legacy-version.ts', 'service.ts'],
  ['config', 'rules', 'watch', 'log.ts', 'log-destination.ts', 'tokens', 'time', 'ruby-eval', 'js-sandbox', 'metrics', 'schedule'],
  ['legacy', 'v2', 'compile'],
  ['execute', 'transport', 'tls', 'http'],
  ['store'],
  ['assets', 'secrets', 'auth', 'cluster', 'bridge'],
  ['intake', 'handling', 'keepalives', 'fleet', 'scheduling', 'client', 'agentd', 'rehearsal'],
  ['api'],
  ['cli'],
];
module.exports = { LEVELS };
