import type { Command } from 'commander';

// The environment variables each command reads, shown under its --help (options name their own variables too).
const SOURCES = [
  ['CHECKBRIDGE_CONFIG_FILE', 'the config.json when no -c (default /etc/sensu/config.json when it exists)'],
  ['CHECKBRIDGE_CONFIG_DIR', 'the conf.d when no -d or directory is named (default /etc/sensu/conf.d when it exists, else ./conf.d)'],
  ['CHECKBRIDGE_LEGACY_ETC', 'where those defaults live (default /etc/sensu)'],
  ['SENSU_CLIENT_NAME, SENSU_CLIENT_ADDRESS, SENSU_CLIENT_SUBSCRIPTIONS, SENSU_API_PORT', 'legacy settings, applied before any file'],
  ['SENSU_TRANSPORT_NAME, RABBITMQ_URL, REDIS_URL, REDIS_SENTINEL_URLS', 'legacy transport settings, applied before any file'],
] as const;

const CLIENT = [
  ['CHECKBRIDGE_URL', 'the v2 API (default http://127.0.0.1:8080)'],
  ['CHECKBRIDGE_API_KEY_FILE, CHECKBRIDGE_API_KEY', 'an API key'],
  ['CHECKBRIDGE_USERNAME, CHECKBRIDGE_PASSWORD', 'else sign in with these for a token'],
] as const;

const DAEMON = [
  ['CHECKBRIDGE_ADMIN_PASSWORD', 'the admin password of a first start (else generated: shown on a terminal, or written to STATE_DIR/admin-password)'],
  ['CHECKBRIDGE_STATE_DIR, CHECKBRIDGE_ROLE, CHECKBRIDGE_LOG_LEVEL, CHECKBRIDGE_LOG_FORMAT', 'as the options say'],
] as const;

const BY_COMMAND: Record<string, readonly (readonly [string, string])[]> = {
  run: [...SOURCES, ...DAEMON],
  exec: SOURCES,
  schedule: SOURCES,
  validate: SOURCES,
  'print-config': SOURCES,
  render: SOURCES,
  compile: SOURCES,
  'api-key': CLIENT,
  create: CLIENT,
  dump: CLIENT,
  login: [CLIENT[0]],
};

/** Every command's help shows the global options and the environment variables it reads. */
export function describeEnvironment(program: Command): void {
  for (const command of program.commands) {
    const variables = BY_COMMAND[command.name()];
    const text = variables?.map(([name, what]) => `  ${name}\n      ${what}`).join('\n');
    for (const each of [command, ...command.commands]) {
      each.configureHelp({ showGlobalOptions: true });
      if (text) each.addHelpText('after', `\nEnvironment:\n${text}`);
    }
  }
}
