// Installed assets under the state directory, one directory per sha512; a download happens once however many wait for it.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AssetBuild } from './definitions.js';
import { ChecksumMismatch, dispatcherFor, download } from './fetch.js';
import { unpack } from './unpack.js';
import { DEFAULT_ASSET_LIMITS, type AssetLimits } from './limits.js';

const TEMP_PREFIX = '.tmp-';

export class AssetCache {
  private readonly ready = new Map<string, string>();
  private readonly pending = new Map<string, Promise<string>>();
  private swept: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
    /** checkbridge.assets.trusted_ca_file: its path is read at each download, so a reload naming another file applies. */
    private readonly caFile: () => string | undefined,
    /** checkbridge.assets' caps, read at each download like the CA file. */
    private readonly limits: () => AssetLimits = () => DEFAULT_ASSET_LIMITS,
  ) {}

  /** The asset's directory, downloading, verifying and unpacking it first when it is not cached. */
  install(name: string, build: AssetBuild): Promise<string> {
    const known = this.ready.get(build.sha512);
    if (known) return Promise.resolve(known);
    const final = join(this.dir, build.sha512);
    if (existsSync(final)) {
      this.ready.set(build.sha512, final);
      return Promise.resolve(final);
    }
    let flight = this.pending.get(build.sha512);
    if (!flight) {
      flight = this.fetch(name, build, final).finally(() => this.pending.delete(build.sha512));
      this.pending.set(build.sha512, flight);
    }
    return flight;
  }

  // A crash mid-install leaves only a temporary directory: swept once, never mistaken for an asset.
  private sweep(): Promise<void> {
    this.swept ??= mkdir(this.dir, { recursive: true })
      .then(() => readdir(this.dir))
      .then((entries) => Promise.all(entries.filter((e) => e.startsWith(TEMP_PREFIX)).map((e) => rm(join(this.dir, e), { recursive: true, force: true }))))
      .then(() => undefined);
    return this.swept;
  }

  private async fetch(name: string, build: AssetBuild, final: string): Promise<string> {
    await this.sweep();
    const started = Date.now();
    const temp = await mkdtemp(join(this.dir, TEMP_PREFIX));
    try {
      const archive = join(temp, 'archive');
      const root = join(temp, 'root');
      await mkdir(root);
      const limits = this.limits();
      try {
        await download(build, archive, dispatcherFor(this.caFile()), limits.max_download_bytes);
      } catch (error) {
        if (error instanceof ChecksumMismatch)
          this.log.debug({ asset: name, url: build.url, expected: error.expected, actual: error.actual, bytes: error.bytes }, 'asset checksum mismatch');
        throw error;
      }
      await unpack(archive, root, limits);
      // The rename is the commit point: the directory named by the sha512 is always a whole asset.
      await rename(root, final).catch((error: NodeJS.ErrnoException) => {
        if (!existsSync(final)) throw error;
      });
      this.ready.set(build.sha512, final);
      this.log.info({ asset: name, url: build.url, sha512: build.sha512.slice(0, 16), ms: Date.now() - started }, 'asset installed');
      return final;
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }
}
