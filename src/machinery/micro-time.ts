/**
 * metav1.MicroTime: RFC 3339 with microseconds. We accept any number of
 * fractional digits (or none) and store UTC with exactly six. A value that is
 * not a time fails decoding, as upstream's, with Go's time.Parse wording.
 */

export const MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

export class MicroTimeError extends Error {}

export interface MicroTime {
  /** Milliseconds since the epoch (whole), UTC. */
  ms: number;
  /** Microseconds within the millisecond, 0-999. */
  micros: number;
}

const quote = (s: string) => JSON.stringify(s);
const isDigit = (s: string, i: number) => i < s.length && s[i] >= '0' && s[i] <= '9';

function parseError(value: string, layoutElem: string, valueElem: string): MicroTimeError {
  return new MicroTimeError(`parsing time ${quote(value)} as ${quote(MICRO_LAYOUT)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`);
}
const rangeError = (value: string, what: string) => new MicroTimeError(`parsing time ${quote(value)}: ${what} out of range`);

function daysIn(month: number, year: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Parses like Go's time.Parse(RFC3339Micro, v), but lenient on the number of fractional digits. */
export function parseMicroTime(value: string): MicroTime {
  let rest = value;
  const literal = (lit: string) => {
    if (!rest.startsWith(lit)) throw parseError(value, lit, rest);
    rest = rest.slice(lit.length);
  };
  const fixed = (n: number, elem: string): number => {
    for (let i = 0; i < n; i++) if (!isDigit(rest, i)) throw parseError(value, elem, rest);
    const v = Number(rest.slice(0, n));
    rest = rest.slice(n);
    return v;
  };
  const year = fixed(4, '2006');
  literal('-');
  const month = fixed(2, '01');
  if (month < 1 || month > 12) throw rangeError(value, 'month');
  literal('-');
  const day = fixed(2, '02');
  if (day > 31) throw rangeError(value, 'day');
  literal('T');
  // Go's "15" takes one or two digits.
  if (!isDigit(rest, 0)) throw parseError(value, '15', rest);
  const hourDigits = isDigit(rest, 1) ? 2 : 1;
  const hour = fixed(hourDigits, '15');
  if (hour >= 24) throw rangeError(value, 'hour');
  literal(':');
  const minute = fixed(2, '04');
  if (minute >= 60) throw rangeError(value, 'minute');
  literal(':');
  const second = fixed(2, '05');
  if (second >= 60) throw rangeError(value, 'second');
  let frac = '';
  if ((rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
    let n = 1;
    while (isDigit(rest, n)) n++;
    frac = rest.slice(1, n);
    rest = rest.slice(n);
  }
  let offsetMinutes = 0;
  if (rest[0] === 'Z') rest = rest.slice(1);
  else {
    const tz = rest;
    if (tz.length < 6 || tz[3] !== ':' || !isDigit(tz, 1) || !isDigit(tz, 2) || !isDigit(tz, 4) || !isDigit(tz, 5)) {
      throw parseError(value, 'Z07:00', tz);
    }
    const [h, m] = [Number(tz.slice(1, 3)), Number(tz.slice(4, 6))];
    if (h > 24) throw rangeError(value, 'time zone offset hour');
    if (m > 60) throw rangeError(value, 'time zone offset minute');
    if (tz[0] !== '+' && tz[0] !== '-') throw parseError(value, 'Z07:00', tz);
    offsetMinutes = (tz[0] === '-' ? -1 : 1) * (h * 60 + m);
    rest = tz.slice(6);
  }
  if (rest.length) throw new MicroTimeError(`parsing time ${quote(value)}: extra text: ${quote(rest)}`);
  if (day < 1 || day > daysIn(month, year)) throw rangeError(value, 'day');
  const micros6 = Number((frac + '000000').slice(0, 6));
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const ms = date.getTime() - offsetMinutes * 60_000;
  return { ms: ms + Math.floor(micros6 / 1000), micros: micros6 % 1000 };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** RFC 3339 in UTC with exactly six fractional digits, as MicroTime marshals. */
export function formatMicroTime(t: MicroTime): string {
  const d = new Date(t.ms);
  const micros = d.getUTCMilliseconds() * 1000 + t.micros;
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}` +
    `T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(micros, 6)}Z`
  );
}

/** RFC 3339 in UTC at second precision, as metav1.Time marshals (the fraction is dropped). */
export function formatTime(t: MicroTime): string {
  return formatMicroTime(t).replace(/\.\d{6}Z$/, 'Z');
}
