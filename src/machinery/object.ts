/** The generic shape of every served object and list, as plain JSON. */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface KObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface KList<T = KObject> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

/** Assignment that keeps a `__proto__` key as a member (JSON.parse makes one) instead of swapping the prototype. */
export function putMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * Deep copy of plain JSON data: objects and arrays are copied, strings are shared (they are immutable, and
 * structuredClone would copy every character of a large ConfigMap value). Anything else goes to structuredClone.
 */
export function deepCopy<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(deepCopy) as T;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    putMember(out, k, deepCopy((v as Record<string, unknown>)[k]));
  }
  return out as T;
}

/** Structural equality of plain JSON values, ignoring key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => deepEqual(ao[k], bo[k]));
}

/**
 * Removes a key only where the object has it: `delete` of an absent key still calls into V8's runtime, and the
 * write path clears server-set fields that bodies rarely carry.
 */
export function dropKey(obj: object, key: string): void {
  if (key in obj) delete (obj as Record<string, unknown>)[key];
}

/**
 * `o[k]` when k is one of o's own keys. For lookups by a key a client chose (a body's field, a selector's field): a
 * plain object read as a map would otherwise answer `constructor`, `toString` or `__proto__` from Object.prototype.
 */
export function ownValue<T>(o: Readonly<Record<string, T>> | undefined, k: string): T | undefined {
  return o !== undefined && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when kind and apiVersion are the object's first two keys, in that order. */
export function hasTypeMetaFirst(obj: object): boolean {
  let i = 0;
  for (const k in obj) {
    if (k !== (i === 0 ? 'kind' : 'apiVersion')) return false;
    if (++i === 2) return true;
  }
  return false;
}

/** The object with those of kind and apiVersion it has as its first keys (a new object when they are not; values untouched). */
export function typeMetaFirst(obj: Record<string, unknown>): Record<string, unknown> {
  if (hasTypeMetaFirst(obj)) return obj;
  const keys = Object.keys(obj);
  const out: Record<string, unknown> = {};
  if (obj.kind !== undefined) out.kind = obj.kind;
  if (obj.apiVersion !== undefined) out.apiVersion = obj.apiVersion;
  for (const k of keys) if (k !== 'kind' && k !== 'apiVersion') putMember(out, k, obj[k]);
  return out;
}
