import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadSettings, formatDiagnostic, watchSettings, type Settings } from '../config/index.js';
import { systemClock } from '../schedule/clock.js';
import { InProcessTransport } from '../transport/index.js';
import { Limiter } from '../execute/limiter.js';
import { spawnCommand, stopAllGroups } from '../execute/spawn.js';
import { ClientRegistry } from '../server/registry.js';
import { LoggingIntake } from '../server/intake.js';
import { ServerRole } from '../server/server-role.js';
import { ClientRole } from '../client/client-role.js';
import { nextLogLevel } from '../log.js';
import { exitCodeOf } from '../errors.js';
import { withSourceOptions, sourcesFrom, type SourceFlags } from './sources.js';
import { loggerFrom } from './logging.js';

interface RunFlags extends SourceFlags {
  stateDir?: string;
  logLevel?: string;
}

function spawnLimit(settings: Settings): number {
  return (settings.raw.sensu as { spawn?: { limit?: number } } | undefined)?.spawn?.limit ?? 12;
}

/** The daemon: server and client roles in one process over the in-process transport; conf.d edits apply live. */
export function registerRun(program: Command): void {
  withSourceOptions(program.command('run'))
    .description('run the server and client roles: schedule, execute, take results (the daemon)')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--state-dir <dir>', 'where state lives (env CHECKBRIDGE_STATE_DIR)', process.env.CHECKBRIDGE_STATE_DIR ?? 'state')
    .option('--log-level <level>', 'panic, fatal, error, warn, info, debug, trace (env CHECKBRIDGE_LOG_LEVEL)')
    .action(async (positional: string[], flags: RunFlags) => {
      const { logger, level } = loggerFrom(flags.logLevel);
      const sources = sourcesFrom(flags, positional);
      const initial = loadSettings(sources);
      if (!initial.settings) {
        for (const diagnostic of initial.diagnostics) process.stderr.write(formatDiagnostic(diagnostic) + '\n');
        process.stderr.write('configuration is invalid: refusing to start\n');
        process.exitCode = exitCodeOf('CB_CONFIG_REFUSED');
        return;
      }
      const settings = initial.settings;
      const stateDir = resolve(flags.stateDir ?? 'state');
      mkdirSync(stateDir, { recursive: true });

      const limiter = new Limiter(spawnLimit(settings));
      const run = (command: string, options: Parameters<typeof spawnCommand>[1]) => limiter.run(() => spawnCommand(command, options));
      const transport = new InProcessTransport();
      const registry = new ClientRegistry();
      const intake = new LoggingIntake(logger);
      const server = new ServerRole({ clock: systemClock, transport, registry, logger });
      const client = new ClientRole({ clock: systemClock, transport, intake, run, logger });
      const apply = (s: Settings) => {
        limiter.setLimit(spawnLimit(s));
        registry.upsert(s.client as Record<string, unknown>);
        client.apply(s);
        server.apply(s);
      };
      apply(settings);

      const watcher = watchSettings({ sources, initial: { ...initial, settings }, logger });
      watcher.onChange((_diff, next) => apply(next));
      const keepAlive = setInterval(() => undefined, 1 << 30);
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'stopping');
        server.stop();
        const grace = setTimeout(() => void stopAllGroups(), 10_000);
        await client.stop();
        clearTimeout(grace);
        await stopAllGroups();
        await watcher.close();
        await transport.close();
        clearInterval(keepAlive);
        logger.info('stopped');
      };
      process.on('SIGTERM', () => void stop('SIGTERM'));
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGHUP', () => {
        logger.info('SIGHUP: reloading configuration');
        void watcher.reload();
      });
      let current: string = level;
      process.on('SIGUSR1', () => {
        current = nextLogLevel(current);
        logger.level = current === 'panic' ? 'fatal' : current;
        logger.warn({ level: current }, 'log level changed');
      });
      await watcher.ready();
      logger.info(
        { files: settings.files.length, checks: Object.keys(settings.checks).length, scheduled: server.scheduledChecks(), standalone: client.standaloneChecks(), subscriptions: client.subscriptions(), stateDir },
        'checkbridge running',
      );

    });
}
