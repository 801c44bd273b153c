/**
 * JSON values ↔ CEL values. Going in, the schema decides: integer fields
 * (and whole numbers in int-or-string or untyped data, as upstream's JSON
 * decoding gives int64) become CEL ints, number fields stay doubles, strings
 * with format date/date-time/duration/byte become timestamps, durations and
 * bytes, and object property names are escaped as rules see them.
 */
import { celList, isCelList, isCelMap, isCelUint, type CelInput, type CelValue } from '@bufbuild/cel';
import { create, isMessage } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema, type Duration, type Timestamp } from '@bufbuild/protobuf/wkt';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { escapePropertyName } from './escaping';
import { none, some } from './library/optional';
import type { OpenApiSchema } from './schema-types';
import { ownValue } from '../object';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whole JSON numbers as CEL ints; others as doubles. */
function untypedNumber(n: number): bigint | number {
  return Number.isInteger(n) ? BigInt(n) : n;
}

export function toCelValue(value: unknown, schema?: OpenApiSchema): CelInput {
  if (value === null || value === undefined) return null;
  if (!schema || (!schema.type && !schema['x-kubernetes-int-or-string'])) return untyped(value);
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'number' ? untypedNumber(value) : (value as string);
  switch (schema.type) {
    case 'integer':
      return typeof value === 'number' ? BigInt(Math.trunc(value)) : untyped(value);
    case 'number':
      return typeof value === 'number' ? value : untyped(value);
    case 'string':
      return typeof value === 'string' ? formatted(value, schema.format) : untyped(value);
    case 'array':
      return Array.isArray(value) ? value.map((v) => toCelValue(v, schema.items)) : untyped(value);
    case 'object': {
      if (!isObject(value)) return untyped(value);
      const ap = schema.additionalProperties;
      const out: Record<string, CelInput> = {};
      if (ap && typeof ap === 'object') {
        for (const [k, v] of Object.entries(value)) out[k] = toCelValue(v, ap);
        return out;
      }
      for (const [k, v] of Object.entries(value)) {
        const prop = ownValue(schema.properties, k);
        const name = prop ? escapePropertyName(k) : k;
        if (name !== undefined) out[name] = toCelValue(v, prop);
      }
      return out;
    }
    default:
      return untyped(value);
  }
}

/**
 * A converted value as the library's runtime value, as an activation would
 * make it on every read of the variable: converting once saves that when a
 * value serves several expressions.
 */
export function celValue(input: CelInput): CelValue {
  return celList([input]).get(0)!;
}

/**
 * A CEL optional of a converted value, or optional.none() without one: the
 * `oldSelf` of an optionalOldSelf rule. The payload is made a runtime value
 * here (as an activation would), since `.value()` hands it out unchanged.
 */
export function celOptional(input: CelInput | undefined): CelValue {
  if (input === undefined) return none() as unknown as CelValue;
  return some(celValue(input)) as unknown as CelValue;
}

function untyped(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return untypedNumber(value);
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  if (Array.isArray(value)) return value.map(untyped);
  if (isObject(value)) {
    const out: Record<string, CelInput> = {};
    for (const [k, v] of Object.entries(value)) out[k] = untyped(v);
    return out;
  }
  return String(value);
}

function formatted(s: string, format: string | undefined): CelInput {
  switch (format) {
    case 'date':
      return parseTimestamp(`${s}T00:00:00Z`) ?? s;
    case 'date-time':
      return parseTimestamp(s) ?? s;
    case 'duration':
      return parseDuration(s) ?? s;
    case 'byte':
      return new Uint8Array(Buffer.from(s, 'base64'));
    default:
      return s;
  }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 3339 with nanoseconds, as a google.protobuf.Timestamp. */
export function parseTimestamp(s: string): Timestamp | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8].toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  return create(TimestampSchema, { seconds: BigInt(ms / 1000), nanos: Number((m[7] ?? '').padEnd(9, '0')) });
}

const UNIT_NANOS: Record<string, bigint> = { ns: 1n, us: 1000n, µs: 1000n, μs: 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

/** Go's time.ParseDuration syntax (`1h30m`, `-1.5s`, `0`), as a google.protobuf.Duration. */
export function parseDuration(s: string): Duration | undefined {
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$|^([+-]?)0$/.exec(s);
  if (!m) return undefined;
  if (m[3] !== undefined) return create(DurationSchema, { seconds: 0n, nanos: 0 });
  let total = 0n;
  for (const [, int, frac = '', unit] of s.matchAll(/(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/g)) {
    const scale = UNIT_NANOS[unit];
    total += BigInt(int || '0') * scale + (frac ? (BigInt(frac) * scale) / 10n ** BigInt(frac.length) : 0n);
  }
  if (m[1] === '-') total = -total;
  return create(DurationSchema, { seconds: total / 1_000_000_000n, nanos: Number(total % 1_000_000_000n) });
}

/** A CEL result as JSON-friendly data (ints as numbers when safe, timestamps as RFC 3339). */
export function fromCelValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v === null || typeof v !== 'object') return v;
  if (isCelUint(v)) return fromCelValue(v.value);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (isCelList(v) || Array.isArray(v)) return Array.from(v as Iterable<unknown>, fromCelValue);
  if (isCelMap(v) || v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of (v as Map<unknown, unknown>).entries()) out[String(k)] = fromCelValue(x);
    return out;
  }
  const message = isReflectMessage(v) ? v.message : isMessage(v) ? v : undefined;
  if (message?.$typeName === TimestampSchema.typeName) {
    const t = message as Timestamp;
    return new Date(Number(t.seconds) * 1000 + t.nanos / 1e6).toISOString();
  }
  if (message && 'key' in message) return (message as unknown as { key: string }).key;
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromCelValue(x)]));
  return String(v);
}
