// How the legacy parser (parse-cron 0.1.4) read expressions that cron-parser refuses but legacy
// accepted: reversed ranges (`5-1`, an empty set: ranges do not wrap around), day-of-week past 7, day-of-month
// outside 1-31 and days that never occur in the chosen months (`31` in February). Each such element matches nothing.

export interface LegacyReading {
  /** What the parser read, one note per element that matches nothing. */
  readonly notes: readonly string[];
  /** The expression cron-parser runs; for a cron that never fires, one with the same syntax left to check. */
  readonly expression: string;
  readonly fires: boolean;
  /** For a cron that never fires: what legacy parse-cron ran instead (its nil field became 1st / hour 0 / minute 0). */
  readonly legacyFallback: string | null;
}

interface Field {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  /** The highest value `*` expands to (day-of-week: 6, though 7 is accepted as Sunday). */
  readonly starMax: number;
  /** Whether a value past `max` is read (and never matches) rather than refused. */
  readonly outOfRangeMatchesNothing: boolean;
}

const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59, starMax: 59, outOfRangeMatchesNothing: false },
  { name: 'hour', min: 0, max: 23, starMax: 23, outOfRangeMatchesNothing: false },
  { name: 'day-of-month', min: 1, max: 31, starMax: 31, outOfRangeMatchesNothing: true },
  { name: 'month', min: 1, max: 12, starMax: 12, outOfRangeMatchesNothing: false },
  { name: 'day-of-week', min: 0, max: 7, starMax: 6, outOfRangeMatchesNothing: true },
];

const NAMES = new Map<string, string>([
  ['jan', '1'],
  ['feb', '2'],
  ['mar', '3'],
  ['apr', '4'],
  ['may', '5'],
  ['jun', '6'],
  ['jul', '7'],
  ['aug', '8'],
  ['sep', '9'],
  ['oct', '10'],
  ['nov', '11'],
  ['dec', '12'],
  ['sun', '0'],
  ['mon', '1'],
  ['tue', '2'],
  ['wed', '3'],
  ['thu', '4'],
  ['fri', '5'],
  ['sat', '6'],
]);

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

interface FieldRead {
  readonly values: Set<number>;
  readonly notes: string[];
}

function range(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v += step) out.push(v);
  return out;
}

// The field's values as parse-cron expands them; null for anything this reading does not decide (cron-parser does).
function readField(text: string, field: Field): FieldRead | null {
  const values = new Set<number>();
  const notes: string[] = [];
  for (const part of text.split(',')) {
    const star = /^\*(?:\/(\d+))?$/.exec(part);
    const explicit = /^(\d+)(?:-(\d+)(?:\/(\d+))?)?$/.exec(part);
    let from: number;
    let to: number;
    let step: number;
    if (star) {
      [from, to, step] = [field.min, field.starMax, Number(star[1] ?? 1)];
    } else if (explicit) {
      from = Number(explicit[1]);
      to = explicit[2] === undefined ? from : Number(explicit[2]);
      step = Number(explicit[3] ?? 1);
    } else {
      return null;
    }
    if (step < 1) return null;
    if (to < from) {
      notes.push(`${field.name} range ${part} is empty (ranges do not wrap around)`);
      continue;
    }
    if (from < field.min || to > field.max) {
      if (!field.outOfRangeMatchesNothing) return null;
      const kept = range(from, to, step).filter((v) => v >= field.min && v <= field.max);
      const lost = range(from, to, step).filter((v) => v < field.min || v > field.max);
      notes.push(`${field.name} ${lost.join(',')} never matches (${field.min}-${field.max}${field.name === 'day-of-week' ? ', 7 is Sunday' : ''})`);
      kept.forEach((v) => values.add(v));
      continue;
    }
    range(from, to, step).forEach((v) => values.add(v));
  }
  return { values, notes };
}

const listOf = (values: Iterable<number>) => [...values].sort((a, b) => a - b).join(',');

/**
 * The legacy reading of five fields, or null when it adds nothing to cron-parser's (no element matches nothing,
 * or an element this reading does not decide). A month range that is empty made legacy fail, so it stays invalid.
 */
export function readLegacyCron(fields: readonly string[]): LegacyReading | null {
  const texts = fields.map((f) =>
    f.toLowerCase().replace(/jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat/g, (n) => NAMES.get(n)!),
  );
  const reads: FieldRead[] = [];
  for (let i = 0; i < FIELDS.length; i++) {
    const read = readField(texts[i]!, FIELDS[i]!);
    if (!read) return null;
    reads.push(read);
  }
  const [minute, hour, dom, month, dow] = reads as [FieldRead, FieldRead, FieldRead, FieldRead, FieldRead];
  const domStar = texts[2] === '*';
  const dowStar = texts[4] === '*';
  // Days of the month that no chosen month has: legacy looks for them and finds none.
  if (!domStar) {
    const months = [...month.values];
    const impossible = [...dom.values].filter((d) => !months.some((m) => d <= MONTH_DAYS[m - 1]!));
    if (impossible.length > 0 && months.length > 0) {
      impossible.forEach((d) => dom.values.delete(d));
      dom.notes.push(`day-of-month ${impossible.join(',')} never occurs in month ${listOf(months)}`);
    }
  }
  const notes = reads.flatMap((r) => r.notes);
  if (notes.length === 0) return null;
  if (month.values.size === 0) return null;

  // parse-cron: with both day fields `*` every day matches; otherwise a day matches either restricted field.
  const dayFires = (domStar && dowStar) || (!domStar && dom.values.size > 0) || (!dowStar && dow.values.size > 0);
  const fallback = minute.values.size === 0 ? 'at minute 0' : hour.values.size === 0 ? 'in hour 0' : !dayFires ? 'on the 1st of the month' : null;
  const fires = fallback === null;
  const rewrite = (i: number, read: FieldRead) => {
    if (read.notes.length === 0) return fields[i]!;
    if (read.values.size === 0) return '*';
    // cron-parser refuses Sunday twice (0 and 7) in one list.
    return listOf(i === 4 ? new Set([...read.values].map((v) => v % 7)) : read.values);
  };
  let domText = rewrite(2, dom);
  let dowText = rewrite(4, dow);
  // A restricted day field left empty drops out: the other one decides alone (legacy's union).
  if (fires && !domStar && dom.values.size === 0) domText = '*';
  if (fires && !dowStar && dow.values.size === 0) dowText = '*';
  const expression = [rewrite(0, minute), rewrite(1, hour), domText, rewrite(3, month), dowText].join(' ');
  return { notes, expression, fires, legacyFallback: fallback && `legacy parse-cron ran it ${fallback} instead` };
}
