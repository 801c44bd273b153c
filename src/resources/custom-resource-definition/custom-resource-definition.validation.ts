/**
 * CustomResourceDefinition rules (upstream's ValidateCustomResourceDefinition,
 * ...Update and ...Status): the name is `<plural>.<group>`, the spec as
 * crd-spec.validation.ts checks it, accepted names, stored versions, the API
 * approval annotation of protected groups and preserveUnknownFields. On
 * update, rules added since a CRD was stored stay relaxed for it, and group,
 * plural (and once established, scope and kind) are immutable.
 */
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';
import type { KObject } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { hasUnprunedDefaults, mapListKeysMapSet, newStructuralError, schemaHas, validateStructural, type JSONSchemaProps } from '../../machinery/structural';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../machinery/validation/object-meta';
import { approvalErrors } from './crd-approval';
import { isConditionTrue } from './crd-conditions';
import { CRDObject, semanticEqual, Spec, toInternalSpec } from './crd-internal';
import { jsonValue, MAX_SELECTABLE_FIELDS, validateNames, validateStoredVersions } from './crd-parts.validation';
import { SpecOptions, validateSpec } from './crd-spec.validation';
import { caBundleError, hasAcceptedReviewVersion } from './crd-webhook.validation';


const openapiTypes = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const schemasOf = (spec: Spec): JSONSchemaProps[] =>
  [spec.validation?.openAPIV3Schema, ...spec.versions.map((v) => v.schema?.openAPIV3Schema)].filter((s): s is JSONSchemaProps => !!s);
const anySchema = (spec: Spec, pred: (s: JSONSchemaProps) => boolean) => schemasOf(spec).some((s) => schemaHas(s, pred));

const nonAtomicSetItems = (s: JSONSchemaProps) => {
  const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
  if (s['x-kubernetes-list-type'] !== 'set' || !items) return false;
  if (items.type === 'array') return !!items['x-kubernetes-list-type'] && items['x-kubernetes-list-type'] !== 'atomic';
  return items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic';
};

function createOptions(ctx: StrategyContext): SpecOptions {
  return {
    allowDefaults: true,
    requireRecognizedReviewVersion: true,
    requireOpenAPISchema: true,
    requireValidPropertyType: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    // A CRD that is not established yet may carry a CA bundle that does not parse.
    allowInvalidCABundle: true,
    allowTooManySelectableFields: new Set(),
    crypto: ctx.crypto,
  };
}

/** A version's schema in the internal form: the shared one when versions have none of their own. */
function schemaFor(spec: Spec, name: string): { found: boolean; schema?: unknown } {
  if (!spec.versions.some((v) => v.schema !== undefined && v.schema !== null)) return { found: true, schema: spec.validation };
  if (spec.validation) return { found: false };
  const v = spec.versions.find((x) => x.name === name);
  return v ? { found: true, schema: v.schema } : { found: false };
}

/** Upstream's findVersionsWithUnchangedSchemas. */
function unchangedSchemas(spec: Spec, old: Spec): Set<string> {
  const out = new Set<string>();
  for (const v of spec.versions) {
    const now = schemaFor(spec, v.name ?? '');
    const was = schemaFor(old, v.name ?? '');
    if (now.found && was.found && semanticEqual(now.schema, was.schema)) out.add(v.name ?? '');
  }
  return out;
}

/** What the stored CRD already had: rules it broke stay relaxed so it can still be updated. */
function updateOptions(spec: Spec, old: Spec, oldObj: CRDObject, ctx: StrategyContext): SpecOptions {
  const established = isConditionTrue(oldObj.status, 'Established');
  const oldBundle = old.conversion?.webhookClientConfig?.caBundle;
  const tooMany = new Set<string>();
  if ((old.selectableFields?.length ?? 0) > MAX_SELECTABLE_FIELDS && semanticEqual(spec.selectableFields, old.selectableFields)) tooMany.add('');
  for (const v of spec.versions) {
    const was = old.versions.find((o) => o.name === v.name);
    if (was && (was.selectableFields?.length ?? 0) > MAX_SELECTABLE_FIELDS && semanticEqual(v.selectableFields, was.selectableFields)) tooMany.add(v.name ?? '');
  }
  return {
    allowDefaults: true,
    requireRecognizedReviewVersion: !old.conversion || hasAcceptedReviewVersion(old.conversion.conversionReviewVersions),
    requireOpenAPISchema: !!old.validation?.openAPIV3Schema || old.versions.every((v) => !!v.schema?.openAPIV3Schema),
    requireValidPropertyType: !anySchema(old, (s) => !!s.type && !openapiTypes.includes(s.type)),
    requireStructuralSchema: !schemasOf(old).some((s) => !!newStructuralError(s) || validateStructural(s, FieldPath.root('')).length > 0),
    requirePrunedDefaults: !schemasOf(old).some((s) => !newStructuralError(s) && validateStructural(s, FieldPath.root('')).length === 0 && hasUnprunedDefaults(s)),
    requireAtomicSetType: !anySchema(old, nonAtomicSetItems),
    requireMapListKeysMapSetValidation: !anySchema(old, (s) => mapListKeysMapSet(s, FieldPath.root('')).length > 0),
    allowInvalidCABundle: !established || (!!oldBundle && !!caBundleError(oldBundle, ctx.crypto)),
    allowTooManySelectableFields: tooMany,
    versionsWithUnchangedSchemas: unchangedSchemas(spec, old),
    crypto: ctx.crypto,
  };
}

function statusErrors(crd: CRDObject, spec: Spec): FieldError[] {
  const status = FieldPath.root('status');
  return [
    ...validateNames(crd.status?.acceptedNames ?? {}, status.child('acceptedNames')),
    ...validateStoredVersions(crd.status?.storedVersions, spec.versions, status.child('storedVersions')),
  ];
}

function preserveUnknownFieldsErrors(crd: CRDObject, old?: CRDObject): FieldError[] {
  if (old?.spec?.preserveUnknownFields === true) return [];
  if (crd.spec?.preserveUnknownFields !== true) return [];
  return [fieldErrors.invalid('spec.preserveUnknownFields', jsonValue(true), 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
}

/** metadata.name (and generateName) must be `<plural>.<group>`; the DNS rule is the kind's name rule. */
function nameErrors(crd: CRDObject, spec: Spec): FieldError[] {
  const required = `${spec.names.plural ?? ''}.${spec.group}`;
  const errs: FieldError[] = [];
  const detail = 'must be spec.names.plural+"."+spec.group';
  if (crd.metadata.generateName && crd.metadata.generateName !== required) errs.push(fieldErrors.invalid('metadata.generateName', crd.metadata.generateName, detail));
  if (crd.metadata.name && crd.metadata.name !== required) errs.push(fieldErrors.invalid('metadata.name', crd.metadata.name, detail));
  return errs;
}

export function validateCRD(obj: KObject, ctx: StrategyContext): FieldError[] {
  const crd = obj as CRDObject;
  const spec = toInternalSpec(crd.spec ?? {});
  return [
    ...nameErrors(crd, spec),
    ...validateSpec(spec, createOptions(ctx), FieldPath.root('spec')),
    ...statusErrors(crd, spec),
    ...approvalErrors(crd),
    ...preserveUnknownFieldsErrors(crd),
  ];
}

export function validateCRDUpdate(obj: KObject, oldObj: KObject, ctx: StrategyContext): FieldError[] {
  const crd = obj as CRDObject;
  const old = oldObj as CRDObject;
  const spec = toInternalSpec(crd.spec ?? {});
  const oldSpec = toInternalSpec(old.spec ?? {});
  const p = FieldPath.root('spec');
  const errs = validateSpec(spec, updateOptions(spec, oldSpec, old, ctx), p);
  const immutable = (path: FieldPath, now: string, was: string) => {
    if (now !== was) errs.push(fieldErrors.invalid(path, now, FIELD_IMMUTABLE_ERROR_MSG));
  };
  if (isConditionTrue(old.status, 'Established')) {
    immutable(p.child('scope'), spec.scope, oldSpec.scope);
    immutable(p.child('names', 'kind'), spec.names.kind ?? '', oldSpec.names.kind ?? '');
  }
  immutable(p.child('group'), spec.group, oldSpec.group);
  immutable(p.child('names', 'plural'), spec.names.plural ?? '', oldSpec.names.plural ?? '');
  return [...errs, ...statusErrors(crd, spec), ...approvalErrors(crd, old), ...preserveUnknownFieldsErrors(crd, old)];
}

/** Writes to /status: only the accepted names are checked (metadata is the registry's). */
export function validateCRDStatusUpdate(obj: KObject): FieldError[] {
  return validateNames((obj as CRDObject).status?.acceptedNames ?? {}, FieldPath.root('status').child('acceptedNames'));
}
