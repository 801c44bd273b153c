/**
 * CEL equality and ordering over runtime values, for library functions that
 * compare elements (list indexOf/min/max/isSorted, sets). The library does
 * not export its own; these follow the spec: numbers compare across int,
 * uint and double, other values only within their type.
 */
import { isCelList, isCelMap, isCelUint, type CelValue } from '@bufbuild/cel';
import { equals as messageEquals } from '@bufbuild/protobuf';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';

type Num = bigint | number;

function numeric(v: unknown): Num | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (isCelUint(v)) return v.value;
  return undefined;
}

function compareNumbers(a: Num, b: Num): number {
  if (typeof a === 'number' && Number.isNaN(a)) return NaN;
  if (typeof b === 'number' && Number.isNaN(b)) return NaN;
  // mixed bigint/number comparisons are exact in JavaScript
  return a < b ? -1 : a > b ? 1 : 0;
}

export function celEquals(a: CelValue | unknown, b: CelValue | unknown): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && compareNumbers(na, nb) === 0;
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (isCelList(a) && isCelList(b)) {
    if (a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i), b.get(i))) return false;
    return true;
  }
  if (isCelMap(a) && isCelMap(b)) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !celEquals(v, b.get(k))) return false;
    return true;
  }
  if (isReflectMessage(a) && isReflectMessage(b)) return a.desc.typeName === b.desc.typeName && messageEquals(a.desc, a.message, b.message);
  return false;
}

/** Timestamps and durations order by (seconds, nanos). */
function timeParts(v: unknown): [bigint, number] | undefined {
  if (!isReflectMessage(v)) return undefined;
  const name = v.desc.typeName;
  if (name !== 'google.protobuf.Timestamp' && name !== 'google.protobuf.Duration') return undefined;
  const m = v.message as unknown as { seconds: bigint; nanos: number };
  return [m.seconds, m.nanos];
}

/** -1, 0 or 1; throws for values CEL cannot order. */
export function celCompare(a: unknown, b: unknown): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return compareNumbers(na, nb);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  const ta = timeParts(a);
  const tb = timeParts(b);
  if (ta && tb && (a as { desc: { typeName: string } }).desc.typeName === (b as { desc: { typeName: string } }).desc.typeName) {
    return ta[0] !== tb[0] ? (ta[0] < tb[0] ? -1 : 1) : Math.sign(ta[1] - tb[1]);
  }
  throw new Error('no such overload');
}
