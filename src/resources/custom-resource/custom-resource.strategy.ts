/**
 * How custom resources of one served version are decoded, validated and
 * stored, as upstream's customResourceStrategy: the structural schema prunes
 * and defaults every body and every stored object read, validation follows
 * kube-openapi's rules (and the CRD's CEL rules), status is the status
 * subresource's when the version has one.
 */
import { errors } from '../../machinery/status';
import { errorText, type FieldError } from '../../machinery/field-errors';
import type { KObject } from '../../machinery/object';
import type { Strategy } from '../../machinery/resource-definition';
import { decodeCustomResource, validateCustomResource, validateCustomResourceUpdate, type CustomResourceKind, type JSONSchemaProps } from '../../machinery/structural';

export interface ServedVersion {
  group: string;
  version: string;
  storageVersion: string;
  kind: string;
  plural: string;
  schema: JSONSchemaProps | undefined;
  preserveUnknownFields: boolean;
  statusEnabled: boolean;
  scale?: CustomResourceKind['scale'];
  terminating: boolean;
  /** The CRD's CEL rules for this version, when it has any. */
  rules?: (obj: KObject, old: KObject | undefined) => FieldError[];
}

export function kindOf(v: ServedVersion): CustomResourceKind {
  return { group: v.group, version: v.version, kind: v.kind, scale: v.scale ?? undefined };
}

/** A request body, pruned and defaulted in place; the unknown fields it had, and a decoding error (a 400). */
export function decodeBody(v: ServedVersion, obj: KObject): { unknownFields: string[]; error?: string } {
  const decoded = decodeCustomResource(obj, v.schema, v.preserveUnknownFields);
  return decoded.error ? { unknownFields: decoded.unknownFields, error: errorText(decoded.error) } : { unknownFields: decoded.unknownFields };
}

/** A stored object as this version serves it: its apiVersion, pruned and defaulted as upstream does on every read. */
export function decodeStored(v: ServedVersion, obj: KObject): KObject {
  obj.apiVersion = `${v.group}/${v.version}`;
  decodeCustomResource(obj, v.schema, v.preserveUnknownFields);
  return obj;
}

function validate(v: ServedVersion, obj: KObject, old: KObject | undefined): FieldError[] {
  const errs = old ? validateCustomResourceUpdate(obj, old, v.schema, kindOf(v)) : validateCustomResource(obj, v.schema, kindOf(v));
  if (v.rules) errs.push(...v.rules(obj, old));
  return errs;
}

export function customResourceStrategy(v: ServedVersion): Strategy {
  return {
    prepareForCreate(obj) {
      // Upstream's CRD handler refuses creates once its CRD is being deleted.
      if (v.terminating) throw errors.methodNotAllowed('create', { group: v.group, plural: v.plural });
      // With a status subresource, status is written through it only.
      if (v.statusEnabled) delete obj.status;
    },
    validate: (obj) => validate(v, obj, undefined),
    validateUpdate: (obj, old) => validate(v, obj, old),
  };
}
