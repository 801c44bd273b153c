/**
 * Untyped JSON as CEL sees it (whole numbers as ints, as `toCelValue` without a schema),
 * converted on read: an admission policy that reads `object.metadata.name` should not pay
 * for converting the whole object (managedFields, data) on every request. Maps wrap the
 * JSON object itself; a list converts its elements when it is read.
 */
import { celList, type CelValue } from '@bufbuild/cel';

/** The runtime recognises its maps by this registered symbol; ours must carry it. */
const CEL_MAP = Symbol.for('@bufbuild/cel/map');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One JSON value as a CEL value; undefined (a key set to undefined) reads as null, as the converted copy had it. */
export function jsonView(v: unknown): CelValue {
  switch (typeof v) {
    case 'number':
      return (Number.isInteger(v) ? BigInt(v) : v) as CelValue;
    case 'string':
    case 'boolean':
    case 'bigint':
      return v as CelValue;
    case 'undefined':
      return null as unknown as CelValue;
  }
  if (v === null) return null as unknown as CelValue;
  if (Array.isArray(v)) return celList(v.map(jsonView)) as unknown as CelValue;
  if (isObject(v)) return new JsonMap(v) as unknown as CelValue;
  return String(v) as CelValue;
}

class JsonMap implements ReadonlyMap<string, CelValue> {
  readonly [CEL_MAP] = {};

  constructor(private readonly o: Record<string, unknown>) {}

  get(key: unknown): CelValue | undefined {
    return typeof key === 'string' && Object.hasOwn(this.o, key) ? jsonView(this.o[key]) : undefined;
  }
  /** As the runtime's own maps answer `has` and `in`: a key holding null is absent. */
  has(key: unknown): boolean {
    return typeof key === 'string' && Object.hasOwn(this.o, key) && this.o[key] !== null && this.o[key] !== undefined;
  }
  get size(): number {
    return Object.keys(this.o).length;
  }
  *entries(): MapIterator<[string, CelValue]> {
    for (const k of Object.keys(this.o)) yield [k, jsonView(this.o[k])];
  }
  keys(): MapIterator<string> {
    return Object.keys(this.o)[Symbol.iterator]();
  }
  *values(): MapIterator<CelValue> {
    for (const k of Object.keys(this.o)) yield jsonView(this.o[k]);
  }
  forEach(cb: (value: CelValue, key: string, map: ReadonlyMap<string, CelValue>) => void): void {
    for (const [k, v] of this.entries()) cb(v, k, this);
  }
  [Symbol.iterator](): MapIterator<[string, CelValue]> {
    return this.entries();
  }
}
