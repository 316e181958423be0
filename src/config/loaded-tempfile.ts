import { writeFileSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const LOADED_TEMPFILE_VAR = 'SENSU_LOADED_TEMPFILE';

/**
 * The legacy `SENSU_LOADED_TEMPFILE`: a file naming the loaded config files, colon-joined,
 * which plugins read to find their settings. It lives in the state directory (or `$SENSU_LOADED_TEMPFILE_DIR`,
 * as in legacy) rather than the shared tmpdir: a fixed name in /tmp is open to symlink tricks by other users
 * and would be shared by two daemons on one host.
 */
export class LoadedTempfile {
  readonly path: string;

  constructor(stateDir: string, env: NodeJS.ProcessEnv = process.env) {
    this.path = resolve(env.SENSU_LOADED_TEMPFILE_DIR || stateDir, 'sensu_checkbridge_loaded_files');
  }

  /**
   * Writes the list (owner-only, replaced atomically so a reader never sees half a list) and exports its path
   * in this process's environment, which every child inherits, the spawner helper included (legacy set_env!).
   */
  write(files: readonly string[]): void {
    const partial = this.path + '.partial';
    rmSync(partial, { force: true }); // a leftover would keep its mode: start afresh
    writeFileSync(partial, files.map((f) => resolve(f)).join(':'), { mode: 0o600 });
    renameSync(partial, this.path);
    process.env[LOADED_TEMPFILE_VAR] = this.path;
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }
}
