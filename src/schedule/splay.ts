import { createHash } from 'node:crypto';

/** First 8 bytes of MD5(key), unsigned little-endian (legacy `unpack("Q<")`). */
export function splayHash(key: string): bigint {
  return createHash('md5').update(key).digest().readBigUInt64LE(0);
}

/** Legacy splay in ms: ((H - now_ms) mod interval_ms), floored modulo, so always >= 0. */
export function splayMs(key: string, intervalSeconds: number, nowMs: number): number {
  const interval = BigInt(Math.round(intervalSeconds * 1000));
  const diff = splayHash(key) - BigInt(Math.floor(nowMs));
  return Number(((diff % interval) + interval) % interval);
}

/** The first instant >= from whose phase matches the key: t ≡ H (mod interval). */
export function firstInstant(key: string, intervalSeconds: number, from: number): number {
  return Math.floor(from) + splayMs(key, intervalSeconds, from);
}

export function subscriptionSplayKey(check: string): string {
  return check;
}

export function standaloneSplayKey(client: string, check: string): string {
  return `${client}:${check}`;
}

/**
 * The one proxy splay: ms between two requests of a fan-out of `count`, spread over `coverage` percent (90 unless set)
 * of `spreadSeconds`; 0 (all at once) without splay.
 */
export function splayStepMs(count: number, spreadSeconds: number, splay: boolean, coverage: unknown): number {
  if (!splay || count === 0 || spreadSeconds <= 0) return 0;
  return (spreadSeconds * 1000 * ((Number(coverage) || 90) / 100)) / count;
}
