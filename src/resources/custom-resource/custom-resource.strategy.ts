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
import type { Strategy, StrategyContext } from '../../machinery/resource-definition';
import {
  applyDefaults,
  celBlocked,
  celValidatorFor,
  decodeCustomResource,
  validateCustomResource,
  validateCustomResourceUpdate,
  type CustomResourceKind,
  type JSONSchemaProps,
} from '../../machinery/structural';

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

/**
 * The CRD's CEL rules (x-kubernetes-validations), after the schema's own checks: not run when those found the object
 * of the wrong shape (upstream's blocking error instead); on updates, failures on unchanged values are warnings.
 */
export function checkRules(v: ServedVersion, obj: KObject, old: KObject | undefined, errs: FieldError[], ctx: StrategyContext): FieldError[] {
  if (!v.schema) return errs;
  const blocked = celBlocked(errs);
  if (blocked) return [...errs, blocked];
  const result = celValidatorFor(v.schema)(obj, old);
  if (ctx.warnings) for (const w of result.warnings) ctx.warnings.push(w);
  return result.errors.length ? [...errs, ...result.errors] : errs;
}

function validate(v: ServedVersion, obj: KObject, old: KObject | undefined, ctx: StrategyContext): FieldError[] {
  const errs = old ? validateCustomResourceUpdate(obj, old, v.schema, kindOf(v)) : validateCustomResource(obj, v.schema, kindOf(v));
  return checkRules(v, obj, old, errs, ctx);
}

export function customResourceStrategy(v: ServedVersion): Strategy {
  return {
    prepareForCreate(obj) {
      // Upstream's CRD handler refuses creates once its CRD is being deleted.
      if (v.terminating) throw errors.methodNotAllowed('create', { group: v.group, plural: v.plural });
      // With a status subresource, status is written through it only.
      if (v.statusEnabled) delete obj.status;
    },
    // Every write's result is defaulted, whatever made it (a server-side apply that dropped a defaulted field gets it back).
    applyDefaults: (obj) => applyDefaults(obj, v.schema),
    validate: (obj, ctx) => validate(v, obj, undefined, ctx),
    validateUpdate: (obj, old, ctx) => validate(v, obj, old, ctx),
  };
}
