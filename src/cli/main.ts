import { Command, CommanderError } from 'commander';
import { CheckbridgeError, exitCodeOf } from '../errors.js';
import { translateLegacyArgs } from './legacy-args.js';
import { describeEnvironment } from './help-environment.js';

type Register = (program: Command) => void;

// Each command's module is imported only when that command runs: start-up loads nothing a command never uses.
const MODULES: readonly { readonly commands: readonly string[]; readonly load: () => Promise<Register> }[] = [
  { commands: ['run'], load: async () => (await import('./run.js')).registerRun },
  { commands: ['exec'], load: async () => (await import('./exec.js')).registerExec },
  { commands: ['schedule'], load: async () => (await import('./schedule.js')).registerSchedule },
  { commands: ['validate'], load: async () => (await import('./validate.js')).registerValidate },
  { commands: ['print-config'], load: async () => (await import('./print-config.js')).registerPrintConfig },
  { commands: ['render'], load: async () => (await import('./render.js')).registerRender },
  { commands: ['api-key'], load: async () => (await import('./api-key.js')).registerApiKey },
  { commands: ['compile'], load: async () => (await import('./compile.js')).registerCompile },
  { commands: ['create', 'dump'], load: async () => (await import('./create.js')).registerCreate },
  { commands: ['rehearse'], load: async () => (await import('./rehearse.js')).registerRehearse },
  { commands: ['version'], load: async () => (await import('./version.js')).registerVersion },
  { commands: ['upgrade'], load: async () => (await import('./upgrade.js')).registerUpgrade },
  { commands: ['backup'], load: async () => (await import('./backup.js')).registerBackup },
  { commands: ['reset-admin-password'], load: async () => (await import('./reset-admin-password.js')).registerResetAdminPassword },
  { commands: ['login'], load: async () => (await import('./login.js')).registerLogin },
];

// Global options that take a value, so the command is found past them.
const GLOBAL_VALUE_OPTIONS = new Set(['--url', '--api-key', '--api-key-file']);

/** The command named on the command line, or null (help, an unknown name, none): then every command is registered. */
function commandNamed(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return MODULES.some((m) => m.commands.includes(arg)) ? arg : null;
  }
  return null;
}

async function buildProgram(args: readonly string[] = []): Promise<Command> {
  // The version text reads the store's schema version: loaded only when asked for, as the commands are.
  const asksVersion = args.some((arg) => arg === '-V' || arg === '--version');
  const version = asksVersion ? (await import('./version.js')).versionText() : '';
  const program = new Command('checkbridge')
    .description('Runs legacy check configuration, serves its APIs, bridges events to v2, compiles to v2 resources')
    .version(version, '-V, --version')
    .option('--url <url>', 'a v2 API, for the client commands (env CHECKBRIDGE_URL; default http://127.0.0.1:8080)')
    .option('--api-key <key>', 'authenticate the client commands with an API key, better given by --api-key-file (env CHECKBRIDGE_API_KEY)')
    .option('--api-key-file <file>', 'read the API key from this file, kept off the command line (env CHECKBRIDGE_API_KEY_FILE)')
    .exitOverride()
    .showHelpAfterError();
  const named = commandNamed(args);
  const modules = named ? MODULES.filter((m) => m.commands.includes(named)) : MODULES;
  for (const register of await Promise.all(modules.map((m) => m.load()))) register(program);
  describeEnvironment(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = translateLegacyArgs(argv);
  const program = await buildProgram(args);
  try {
    await program.parseAsync(args, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      return exitCodeOf('CB_CLI_USAGE');
    }
    if (error instanceof CheckbridgeError) {
      process.stderr.write(`checkbridge: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`checkbridge: ${(error as Error).stack ?? String(error)}\n`);
    return exitCodeOf('CB_RUNTIME');
  }
}

// No top-level await: the validate bundle (scripts/build-cli.mjs) is a CommonJS script, for V8's code cache.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
