// The subset of Ruby's Time.parse that legacy time windows rely on.
export interface ParsedTime {
  /** Seconds after local midnight, with fractions. */
  readonly secondsOfDay: number;
  /** Fixed UTC offset in minutes, or null for the process's local zone. */
  readonly offsetMinutes: number | null;
  /** A fixed calendar date (full timestamps), or only a day of the month (`9.30` quirk). */
  readonly date: { year?: number; month?: number; day: number } | null;
  /** A zone name Ruby's Time.parse does not know (`America/Vancouver`): legacy ignored it and read local time. */
  readonly ignoredZone: string | null;
}

// Ruby's Date zone table, the abbreviations seen in configurations.
const ZONES: Record<string, number> = {
  utc: 0,
  ut: 0,
  gmt: 0,
  z: 0,
  wet: 0,
  bst: 60,
  cet: 60,
  met: 60,
  cest: 120,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  sgt: 480,
  hkt: 480,
  jst: 540,
  kst: 540,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
  ast: -240,
  adt: -180,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
};

// Words Ruby's date parser takes as a month or weekday, never as a zone; single letters are military zones.
const NOT_A_ZONE_NAME = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)|^[a-z]$/i;

/** The zone's fixed offset, null for local time, `ignored` for a name legacy read as local time, undefined if invalid. */
function zoneOffset(zone: string | undefined): number | null | 'ignored' | undefined {
  if (!zone) return null;
  const named = ZONES[zone.toLowerCase()];
  if (named !== undefined) return named;
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone);
  if (!m) return /^[A-Za-z]/.test(zone) && !NOT_A_ZONE_NAME.test(zone) ? 'ignored' : undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

// A meridian is not the start of a word (`Am` of `America`). The zone: an abbreviation, an IANA name (`America/Argentina/Buenos_Aires`), or a numeric offset.
const CLOCK =
  /^(?:(\d{4})-(\d{1,2})-(\d{1,2})[ T]+)?(\d{1,2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(?:([ap])\.?\s*m\.?(?![a-z]))?\s*([A-Za-z][\w+-]*(?:\/[\w+-]+)*|[+-]\d{1,2}(?::?\d{2})?)?$/i;

// Configurations repeat the same few bounds over thousands of checks, and validation and scheduling each read them.
const parsed = new Map<string, ParsedTime | null>();
const PARSED_MAX = 4096;

/** Parses a window bound; null when Ruby's Time.parse would raise. The result is frozen (it is shared). */
export function parseTime(input: unknown): ParsedTime | null {
  if (typeof input !== 'string') return null;
  const known = parsed.get(input);
  if (known !== undefined) return known;
  const result = parseBound(input);
  if (result?.date) Object.freeze(result.date);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(input, result && Object.freeze(result));
  return result;
}

function parseBound(input: string): ParsedTime | null {
  const text = input.trim();
  const dayOnly = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text);
  if (dayOnly) {
    const day = Number(dayOnly[2] ?? dayOnly[1]);
    if (day >= 1 && day <= 31) return { secondsOfDay: 0, offsetMinutes: null, date: { day }, ignoredZone: null };
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
  const ignoredZone = offset === 'ignored' ? zone! : null;
  const fraction = frac ? Number('0.' + frac) : 0;
  const date = year ? { year: Number(year), month: Number(month), day: Number(day) } : null;
  if (date && (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31)) return null;
  return { secondsOfDay: hour * 3600 + minute * 60 + second + fraction, offsetMinutes: ignoredZone ? null : (offset as number | null), date, ignoredZone };
}

export function isValidTime(input: unknown): boolean {
  return parseTime(input) !== null;
}
