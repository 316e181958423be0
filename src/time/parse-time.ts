// The subset of Ruby's Time.parse that legacy time windows rely on (reference §5.2, A.3).
export interface ParsedTime {
  /** Seconds after local midnight, with fractions. */
  readonly secondsOfDay: number;
  /** Fixed UTC offset in minutes, or null for the process's local zone. */
  readonly offsetMinutes: number | null;
  /** A fixed calendar date (full timestamps), or only a day of the month (`9.30` quirk). */
  readonly date: { year?: number; month?: number; day: number } | null;
}

// Ruby's Date zone table, the abbreviations seen in configurations.
const ZONES: Record<string, number> = {
  utc: 0, ut: 0, gmt: 0, z: 0, wet: 0, bst: 60, cet: 60, met: 60, cest: 120, mest: 120, eet: 120, eest: 180,
  msk: 180, ist: 330, sgt: 480, hkt: 480, jst: 540, kst: 540, aest: 600, aedt: 660, nzst: 720, nzdt: 780,
  ast: -240, adt: -180, est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360,
  pst: -480, pdt: -420, akst: -540, akdt: -480, hst: -600,
};

function zoneOffset(zone: string | undefined): number | null | undefined {
  if (!zone) return null;
  const named = ZONES[zone.toLowerCase()];
  if (named !== undefined) return named;
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone);
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

const CLOCK =
  /^(?:(\d{4})-(\d{1,2})-(\d{1,2})[ T]+)?(\d{1,2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(?:([ap])\.?\s*m\.?)?\s*([A-Za-z]{1,5}|[+-]\d{1,2}(?::?\d{2})?)?$/i;

/** Parses a window bound; null when Ruby's Time.parse would raise. */
export function parseTime(input: unknown): ParsedTime | null {
  if (typeof input !== 'string') return null;
  const text = input.trim();
  const dayOnly = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text);
  if (dayOnly) {
    const day = Number(dayOnly[2] ?? dayOnly[1]);
    if (day >= 1 && day <= 31) return { secondsOfDay: 0, offsetMinutes: null, date: { day } };
    return null;
  }
  const m = CLOCK.exec(text);
  if (!m) return null;
  const [, year, month, day, h, min, sec, frac, meridian, zone] = m;
  if (min === undefined && meridian === undefined && year === undefined) return null;
  let hour = Number(h);
  const minute = Number(min ?? 0);
  const second = Number(sec ?? 0);
  if (minute > 59 || second > 60) return null;
  if (meridian) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridian.toLowerCase() === 'p' ? 12 : 0);
  } else if (hour > 24 || (hour === 24 && (minute > 0 || second > 0))) {
    return null;
  }
  const offset = zoneOffset(zone);
  if (offset === undefined) return null;
  const fraction = frac ? Number('0.' + frac) : 0;
  const date = year ? { year: Number(year), month: Number(month), day: Number(day) } : null;
  if (date && (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31)) return null;
  return { secondsOfDay: hour * 3600 + minute * 60 + second + fraction, offsetMinutes: offset, date };
}

export function isValidTime(input: unknown): boolean {
  return parseTime(input) !== null;
}
