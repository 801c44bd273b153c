/**
 * metadata of an embedded resource read the way upstream reads it: JSON into
 * Go's metav1.ObjectMeta and back. Decoding fails with encoding/json's
 * message on a value of the wrong type; writing back keeps only ObjectMeta's
 * fields, leaves out empty ones (all are omitempty) and writes times in UTC.
 */
import { isPlainObject, ownValue } from '../object';
import { goNumber, isGoInt } from './go-format';

type GoType = 'string' | 'int64' | '*int64' | 'bool' | 'time' | 'map' | 'strings' | 'owners' | 'managed' | 'raw';

const objectMetaFields: Record<string, GoType> = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'int64',
  creationTimestamp: 'time',
  deletionTimestamp: 'time',
  deletionGracePeriodSeconds: '*int64',
  labels: 'map',
  annotations: 'map',
  ownerReferences: 'owners',
  finalizers: 'strings',
  managedFields: 'managed',
};
const ownerFields: Record<string, GoType> = { apiVersion: 'string', kind: 'string', name: 'string', uid: 'string', controller: 'bool', blockOwnerDeletion: 'bool' };
const managedFields: Record<string, GoType> = {
  manager: 'string',
  operation: 'string',
  apiVersion: 'string',
  time: 'time',
  fieldsType: 'string',
  fieldsV1: 'raw',
  subresource: 'string',
};

const goTypeNames: Record<GoType, string> = {
  string: 'string',
  int64: 'int64',
  '*int64': 'int64',
  bool: 'bool',
  time: 'string',
  map: 'map[string]string',
  strings: '[]string',
  owners: '[]v1.OwnerReference',
  managed: '[]v1.ManagedFieldsEntry',
  raw: 'v1.FieldsV1',
};

/** encoding/json's name for a JSON value in an UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (typeof v === 'number') return isGoInt(v) ? 'number' : `number ${goNumber(v)}`;
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

class DecodeError extends Error {}

const typeError = (v: unknown, struct: string, field: string, type: string) =>
  new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${struct}.${field} of type ${type}`);

/** Go's RFC 3339 time parse as metav1.Time does; returns the UTC text it marshals back. */
function parseTime(s: string): string {
  const ms = Date.parse(s);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) || Number.isNaN(ms)) {
    throw new DecodeError(`parsing time ${JSON.stringify(s)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(s)} as "2006"`);
  }
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Where the fields ObjectMeta does not know are reported (upstream's strict decoding), and the path they are under. */
interface Unknown {
  fields: string[];
  at: string;
}

function decodeValue(v: unknown, type: GoType, struct: string, field: string, unknown?: Unknown): unknown {
  if (v === null || v === undefined) return undefined;
  const fail = () => typeError(v, struct, field, goTypeNames[type]);
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw fail();
      return v;
    case 'int64':
    case '*int64':
      if (typeof v !== 'number' || !isGoInt(v)) throw fail();
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw fail();
      return v;
    case 'time':
      if (typeof v !== 'string') throw fail();
      return parseTime(v);
    case 'map':
      if (!isPlainObject(v)) throw fail();
      for (const [k, x] of Object.entries(v)) if (typeof x !== 'string' && x !== null) throw typeError(x, struct, `${field}.${k}`, 'string');
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x ?? '']));
    case 'strings':
      if (!Array.isArray(v)) throw fail();
      return v.map((x) => (x === null ? '' : decodeValue(x, 'string', struct, field)));
    case 'owners':
    case 'managed': {
      if (!Array.isArray(v)) throw fail();
      const [name, fields] = type === 'owners' ? ['OwnerReference', ownerFields] : ['ManagedFieldsEntry', managedFields];
      return v.map((x, i) => (x === null ? {} : decodeStruct(x, fields, name as string, `${field}.`, unknown && { fields: unknown.fields, at: `${unknown.at}[${i}].` })));
    }
    case 'raw':
      return v;
  }
}

function decodeStruct(v: unknown, fields: Record<string, GoType>, struct: string, prefix: string, unknown?: Unknown): Record<string, unknown> {
  if (!isPlainObject(v)) throw typeError(v, struct, prefix.replace(/\.$/, ''), `v1.${struct}`);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const type = ownValue(fields, k);
    if (!type) {
      unknown?.fields.push(`${unknown.at}${k}`);
      continue;
    }
    const decoded = decodeValue(x, type, struct, `${prefix}${k}`, unknown && { fields: unknown.fields, at: `${unknown.at}${k}` });
    if (decoded !== undefined) out[k] = decoded;
  }
  return out;
}

/** Go's omitempty, which every ObjectMeta and ManagedFieldsEntry field has: empty strings, zeros, empty lists and maps go. */
function omitEmpty(m: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (v === '' || (v === 0 && k !== 'deletionGracePeriodSeconds')) continue;
    if ((Array.isArray(v) || isPlainObject(v)) && Object.keys(v).length === 0 && k !== 'fieldsV1') continue;
    out[k] = v;
  }
  if (Array.isArray(out.managedFields)) out.managedFields = out.managedFields.map((x) => omitEmpty(x as Record<string, unknown>));
  // OwnerReference's four names have no omitempty: Go writes them even when empty.
  if (Array.isArray(out.ownerReferences)) {
    out.ownerReferences = out.ownerReferences.map((x) => ({ apiVersion: '', kind: '', name: '', uid: '', ...(x as object) }));
  }
  return out;
}

/**
 * metadata as Go decodes it into ObjectMeta and writes it back, or encoding/json's error. With `unknownFields`,
 * the paths of the fields ObjectMeta does not know (`metadata.foo`, `metadata.ownerReferences[0].bar`) are added to it.
 */
export function decodeObjectMeta(v: unknown, unknownFields?: string[]): { ok: true; meta: Record<string, unknown> } | { ok: false; error: string } {
  try {
    if (v === null || v === undefined) return { ok: true, meta: {} };
    if (!isPlainObject(v)) throw new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type v1.ObjectMeta`);
    return { ok: true, meta: omitEmpty(decodeStruct(v, objectMetaFields, 'ObjectMeta', '', unknownFields && { fields: unknownFields, at: 'metadata.' })) };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.message };
    throw e;
  }
}
