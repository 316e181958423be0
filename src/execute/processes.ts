import { LoadedTempfile, spawnLimitOf, type Settings } from '../config/index.js';
import { within, type Service } from '../service.js';
import { Limiter } from './limiter.js';
import { RemoteSpawner } from './remote-spawner.js';
import type { spawnCommand } from './spawn.js';

export type Run = (command: string, options: Parameters<typeof spawnCommand>[1]) => ReturnType<typeof spawnCommand>;

/**
 * Every child process of the daemon, checks and handlers alike: forked from one helper process, checks through the
 * spawn limit, SENSU_LOADED_TEMPFILE for each. At stop no command runs and no helper starts after the helper closes;
 * the work that waits on its processes then gets `settleMs` to settle.
 */
export class Processes implements Service {
  readonly name = 'execution';
  // Checks and handlers fork from one helper process: in a daemon grown to ~380 MB, forking in-process managed
  // 44 executions/s against 394/s through the helper (test/bench/execute), and it stalled intake.
  readonly spawner: RemoteSpawner;
  private readonly loadedTempfile: LoadedTempfile;
  private readonly limiter: Limiter;
  private readonly settling: (() => Promise<unknown>)[] = [];

  constructor(
    stateDir: string,
    settings: Settings,
    private readonly settleMs: number,
  ) {
    this.loadedTempfile = new LoadedTempfile(stateDir); // SENSU_LOADED_TEMPFILE for every child
    this.limiter = new Limiter(spawnLimitOf(settings));
    this.spawner = new RemoteSpawner();
  }

  /** A check's command: through the spawn limit. */
  readonly run: Run = (command, options) => this.limiter.run(() => this.spawner.spawn(command, options));

  /** New settings: the loaded files' list rewritten, the spawn limit changed. */
  apply(settings: Settings): void {
    this.loadedTempfile.write(settings.files);
    this.limiter.setLimit(spawnLimitOf(settings));
  }

  /** Work that settles once its processes are stopped (checks, handlers), awaited after the grace. */
  settleAtStop(settle: () => Promise<unknown>): void {
    this.settling.push(settle);
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    // No command runs and no helper starts after this.
    await this.spawner.close();
    await within(Promise.all(this.settling.map((settle) => settle())), this.settleMs);
    this.loadedTempfile.remove();
  }
}
