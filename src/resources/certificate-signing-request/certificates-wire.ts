/**
 * Wire-level helpers shared by the certificates.svc.io kinds: JSON `[]byte`
 * (base64) and metav1.Time fields, values rendered the way Go prints them in
 * field errors, and the status-subresource metadata reset.
 */
import { RenderedValue } from '../../machinery/field-errors';
import { errors } from '../../machinery/status';
import type { StrategyContext } from '../../machinery/resource-definition';

// Go's base64.StdEncoding as used by encoding/json: padded, CR and LF ignored.
const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes a JSON `[]byte` value; undefined/null decode to empty. Returns an error text on bad input. */
export function decodeBytes(value: unknown): Uint8Array | string {
  if (value === undefined || value === null) return new Uint8Array();
  if (typeof value !== 'string') return 'expected a base64 string';
  const compact = value.replace(/[\r\n]/g, '');
  if (!STD_BASE64.test(compact)) return `illegal base64 data at input byte ${badBase64Offset(value)}`;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** Roughly where Go's decoder gives up: the first foreign character, else the start of the short quantum. */
function badBase64Offset(value: string): number {
  const bad = value.search(/[^A-Za-z0-9+/=\r\n]/);
  if (bad >= 0) return bad;
  const eq = value.indexOf('=');
  if (eq >= 0 && eq < value.replace(/=+$/, '').length) return eq;
  const n = value.replace(/[\r\n]/g, '').replace(/=+$/, '').length;
  return n - (n % 4);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds of an RFC 3339 time, or undefined when unset (null/undefined) or malformed. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !RFC3339.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** RFC 3339 at second precision (fraction truncated), as metav1.Time serializes. */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export function nowTime(ctx: StrategyContext): string {
  return formatTime(ctx.clock.now().getTime());
}

/** Rewrites a time field to second precision when it holds a valid time. */
export function canonicalTime(holder: Record<string, unknown> | undefined, key: string): void {
  if (!holder) return;
  const ms = parseTime(holder[key]);
  if (ms !== undefined) holder[key] = formatTime(ms);
}

/** Decode checks run before validation: bad base64 or time is a 400, as upstream's JSON decoder reports it. */
export class WireChecks {
  constructor(private readonly kind: string, private readonly version: string) {}

  private fail(why: string): never {
    throw errors.badRequest(`${this.kind} in version "${this.version}" cannot be handled as a ${this.kind}: ${why}`);
  }

  bytes(value: unknown): void {
    const decoded = decodeBytes(value);
    if (typeof decoded === 'string') this.fail(decoded);
  }

  time(value: unknown): void {
    if (value === undefined || value === null) return;
    if (parseTime(value) === undefined) {
      const v = JSON.stringify(String(value));
      this.fail(`parsing time ${v} as "2006-01-02T15:04:05Z07:00": cannot parse ${v} as "2006"`);
    }
  }
}

/** A time as Go's time.Time.String() prints it in UTC: `2006-01-02 15:04:05.5 +0000 UTC`. */
export function goTime(ms: number): RenderedValue {
  const iso = new Date(ms).toISOString();
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return new RenderedValue(`${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC`);
}

/** A time.Duration as Go prints it: `1h0m0s`, `30m0s`, `45s`. */
export function goDuration(ms: number): RenderedValue {
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest === 0) return new RenderedValue('0s');
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = (rest / 1000).toString();
  const text = h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
  return new RenderedValue(sign + text);
}

/** A []byte as Go's %#v prints it: `[]byte{0x2d, 0x2d}`. */
export function goBytes(bytes: Uint8Array): RenderedValue {
  return new RenderedValue(`[]byte{${Array.from(bytes, (b) => `0x${b.toString(16)}`).join(', ')}}`);
}
