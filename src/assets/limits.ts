// Caps on one asset (checkbridge.assets): what its download may weigh and what its archive may unpack to.

export interface AssetLimits {
  readonly max_download_bytes: number;
  readonly max_unpacked_bytes: number;
  readonly max_entries: number;
}

// Generous for runtimes (a Ruby or Python runtime asset is tens of MB, a few thousand files), small beside a disk.
export const DEFAULT_ASSET_LIMITS: AssetLimits = { max_download_bytes: 100 * 1024 * 1024, max_unpacked_bytes: 500 * 1024 * 1024, max_entries: 10_000 };

const positive = (value: unknown, fallback: number): number => (Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : fallback);

/** `checkbridge.assets` as caps, defaults where unset (validation refuses anything but positive integers). */
export function assetLimitsOf(assets: { max_download_bytes?: unknown; max_unpacked_bytes?: unknown; max_entries?: unknown } | undefined): AssetLimits {
  return {
    max_download_bytes: positive(assets?.max_download_bytes, DEFAULT_ASSET_LIMITS.max_download_bytes),
    max_unpacked_bytes: positive(assets?.max_unpacked_bytes, DEFAULT_ASSET_LIMITS.max_unpacked_bytes),
    max_entries: positive(assets?.max_entries, DEFAULT_ASSET_LIMITS.max_entries),
  };
}

/** An asset over one of its caps: the message names the setting and its value. */
export class AssetTooLarge extends Error {
  constructor(what: string, setting: keyof AssetLimits, limit: number) {
    super(`${what} checkbridge.assets.${setting} (${limit}${setting === 'max_entries' ? ' entries' : ' bytes'})`);
  }
}
