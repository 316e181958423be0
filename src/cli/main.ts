import { Command, CommanderError } from 'commander';
import { CheckbridgeError, exitCodeOf } from '../errors.js';
import { registerValidate } from './validate.js';
import { registerPrintConfig } from './print-config.js';
import { registerRender } from './render.js';
import { registerRun } from './run.js';
import { registerExec } from './exec.js';
import { registerSchedule } from './schedule.js';
import { registerApiKey } from './api-key.js';
import { registerCompile } from './compile.js';
import { registerCreate } from './create.js';
import { registerLogin } from './login.js';
import { translateLegacyArgs } from './legacy-args.js';
import { registerVersion, versionText } from './version.js';
import { registerUpgrade } from './upgrade.js';

export function buildProgram(): Command {
  const program = new Command('checkbridge')
    .description('Runs legacy check configuration, serves its APIs, bridges events to v2, compiles to v2 resources')
    .version(versionText(), '-V, --version')
    .option('--url <url>', 'a v2 API, for the client commands (env CHECKBRIDGE_URL; default http://127.0.0.1:8080)')
    .option('--api-key <key>', 'authenticate the client commands with an API key (env CHECKBRIDGE_API_KEY)')
    .exitOverride()
    .showHelpAfterError();
  registerRun(program);
  registerExec(program);
  registerSchedule(program);
  registerValidate(program);
  registerPrintConfig(program);
  registerRender(program);
  registerApiKey(program);
  registerCompile(program);
  registerCreate(program);
  registerVersion(program);
  registerUpgrade(program);
  registerLogin(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(translateLegacyArgs(argv), { from: 'user' });
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

const code = await main(process.argv.slice(2));
process.exitCode = code;
