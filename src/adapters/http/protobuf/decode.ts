/**
 * Decodes `application/vnd.kubernetes.protobuf` request bodies: `k8s\0` + runtime.Unknown whose
 * `raw` is the object in upstream's wire schema, into the JSON object the JSON API would show.
 */
import * as protobuf from 'protobufjs';
import { FIELDS_V1_TYPE, kubernetesProtoRoot, PROTOBUF_KINDS, STRING_LIST_TYPES, TIME_TYPE, UNKNOWN_TYPE } from './schema';

export const KUBERNETES_PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"
/** Unix seconds of Go's zero time.Time (0001-01-01T00:00:00Z). */
const GO_ZERO_TIME_SECONDS = -62135596800;

/** A body that is not decodable: 415 for kinds we have no protobuf schema for, else 400. */
export class ProtobufDecodeError extends Error {
  constructor(
    message: string,
    readonly statusCode: 400 | 415 = 400,
  ) {
    super(message);
    this.name = 'ProtobufDecodeError';
  }
}

export interface DecodedProtobuf {
  apiVersion: string;
  kind: string;
  object: Record<string, unknown>;
}

/** Type used for `Unknown.typeMeta` fields the client left empty (upstream defaults them from the endpoint). */
export interface ProtobufTypeDefaults {
  apiVersion?: string;
  kind?: string;
}

type Decoded = protobuf.Message & Record<string, unknown>;

const unknownType = kubernetesProtoRoot.lookupType(UNKNOWN_TYPE);

export function decodeKubernetesProtobuf(body: Buffer, defaults: ProtobufTypeDefaults = {}): DecodedProtobuf {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new ProtobufDecodeError('protobuf body does not start with the "k8s\\0" prefix');
  }
  const unknown = decodeMessage(unknownType, body.subarray(MAGIC.length), 'runtime.Unknown');
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const apiVersion = typeMeta.apiVersion || defaults.apiVersion || '';
  const kind = typeMeta.kind || defaults.kind || '';
  if (!apiVersion || !kind) throw new ProtobufDecodeError('protobuf body has no apiVersion or kind in its typeMeta');
  if (unknown.contentEncoding) {
    throw new ProtobufDecodeError(`unsupported protobuf contentEncoding "${String(unknown.contentEncoding)}"`);
  }
  if (unknown.contentType && unknown.contentType !== KUBERNETES_PROTOBUF_CONTENT_TYPE) {
    throw new ProtobufDecodeError(`unsupported protobuf contentType "${String(unknown.contentType)}"`);
  }
  const typeName = PROTOBUF_KINDS[`${apiVersion}/${kind}`];
  if (!typeName) throw new ProtobufDecodeError(`no protobuf serialization for ${apiVersion}, Kind=${kind}`, 415);
  const type = kubernetesProtoRoot.lookupType(typeName);
  const raw = Object.prototype.hasOwnProperty.call(unknown, 'raw') ? (unknown.raw as Uint8Array) : new Uint8Array(0);
  const object = { apiVersion, kind, ...messageToJSON(type, decodeMessage(type, raw, kind)) };
  return { apiVersion, kind, object };
}

function decodeMessage(type: protobuf.Type, bytes: Uint8Array, what: string): Decoded {
  try {
    return type.decode(bytes) as Decoded;
  } catch (err) {
    throw new ProtobufDecodeError(`malformed protobuf ${what}: ${(err as Error).message}`);
  }
}

/** Present fields only; zero non-pointer scalars and empty maps/lists are omitted, like Go's omitempty. */
function messageToJSON(type: protobuf.Type, message: Decoded): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (!Object.prototype.hasOwnProperty.call(message, field.name)) continue;
    const value = fieldToJSON(field, message[field.name]);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

function fieldToJSON(field: protobuf.Field, value: unknown): unknown {
  if (field.map) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return undefined;
    return Object.fromEntries(entries.map(([k, v]) => [k, valueToJSON(field, v, true)]));
  }
  if (field.repeated) {
    const items = value as unknown[];
    return items.length === 0 ? undefined : items.map((v) => valueToJSON(field, v, true));
  }
  return valueToJSON(field, value, field.options?.nullable === true);
}

/** One value of `field`'s type; `keepZero` for pointer fields and list/map elements. */
function valueToJSON(field: protobuf.Field, value: unknown, keepZero: boolean): unknown {
  const type = field.resolvedType;
  if (type instanceof protobuf.Type) {
    if (type.fullName === `.${TIME_TYPE}`) return timeToJSON(value as Decoded);
    if (type.fullName === `.${FIELDS_V1_TYPE}`) return fieldsV1ToJSON(value as Decoded);
    if (STRING_LIST_TYPES.has(type.fullName)) return ((value as Decoded).items as string[] | undefined) ?? [];
    return messageToJSON(type, value as Decoded);
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  const scalar = field.type === 'int64' ? int64ToNumber(value) : value;
  if (!keepZero && (scalar === '' || scalar === 0 || scalar === false)) return undefined;
  return scalar;
}

/** int64 arrives as a Long (or a number when `long` is absent). */
function int64ToNumber(value: unknown): number {
  return typeof value === 'number' ? value : protobuf.util.LongBits.from(value as protobuf.Long).toNumber(false);
}

/** RFC3339 in UTC at second precision, as metav1.Time marshals; Go's zero time is omitted. */
function timeToJSON(time: Decoded): string | undefined {
  const seconds = time.seconds == null ? 0 : int64ToNumber(time.seconds);
  const nanos = Number(time.nanos ?? 0);
  const unset = !Object.prototype.hasOwnProperty.call(time, 'seconds') && !nanos;
  if (unset || (seconds === GO_ZERO_TIME_SECONDS && nanos === 0)) return undefined;
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) throw new ProtobufDecodeError(`timestamp out of range: ${seconds}s`);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** FieldsV1.Raw holds the JSON field set; it is shown as the parsed object. */
function fieldsV1ToJSON(fields: Decoded): unknown {
  const raw = fields.Raw as Uint8Array | undefined;
  if (!raw || raw.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(raw).toString('utf8')) as unknown;
  } catch {
    throw new ProtobufDecodeError('managedFields fieldsV1 is not valid JSON');
  }
}
