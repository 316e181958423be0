const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90s", "1h30m", "2d", or ISO-8601 "PT1H30M"; milliseconds, or null when unreadable. */
export function parseDuration(text: string): number | null {
  const iso = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(text);
  if (iso && text.length > 1 && !/T$/i.test(text)) {
    const [, d, h, m, s] = iso;
    return Number(d ?? 0) * UNITS.d! + Number(h ?? 0) * UNITS.h! + Number(m ?? 0) * UNITS.m! + Number(s ?? 0) * UNITS.s!;
  }
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return null;
  return parts.reduce((total, [, n, unit]) => total + Number(n) * UNITS[unit!]!, 0);
}
