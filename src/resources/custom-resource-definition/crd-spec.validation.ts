/**
 * Upstream's validateCustomResourceDefinitionSpec, on the internal form
 * (crd-internal.ts): group, scope, schemas required, versions (names, exactly
 * one storage version, per-version schema, subresources, columns and
 * selectable fields), names, the shared schema and parts, and conversion.
 */
import { FieldError, fieldErrors, FieldPath, RenderedValue } from '../../machinery/field-errors';
import { CRDSchemaOptions, JSONSchemaProps, schemaHas, validateCRDSchema } from '../../machinery/structural';
import { isDNS1123Subdomain, isDNS1035Label } from '../../machinery/validation/names';
import type { CryptoPort } from '../../ports/crypto.port';
import { renderVersions } from './crd-go-render';
import type { Spec, Subresources, Validation, Version } from './crd-internal';
import {
  selectableFieldsSchemaError,
  validateColumn,
  validateDeprecationWarning,
  validateEnumString,
  validateNames,
  validateSelectableFields,
  validateSubresources,
} from './crd-parts.validation';
import { validateConversion } from './crd-webhook.validation';

export interface SpecOptions extends CRDSchemaOptions {
  requireOpenAPISchema: boolean;
  requireRecognizedReviewVersion: boolean;
  allowInvalidCABundle: boolean;
  /** Versions ('' for the shared list) whose too-many selectable fields were already stored unchanged. */
  allowTooManySelectableFields: Set<string>;
  /** On update, versions whose schema did not change: their CEL rules skip the per-expression cost limit. */
  versionsWithUnchangedSchemas?: ReadonlySet<string>;
  crypto: CryptoPort;
}

/** Upstream's suppressExpressionCostForUnchangedSchema. */
const forVersion = (opts: SpecOptions, name: string | undefined): SpecOptions =>
  opts.versionsWithUnchangedSchemas?.has(name ?? '') ? { ...opts, suppressPerExpressionCost: true } : opts;

const schemas = (spec: Spec): JSONSchemaProps[] =>
  [spec.validation?.openAPIV3Schema, ...spec.versions.map((v) => v.schema?.openAPIV3Schema)].filter((s): s is JSONSchemaProps => !!s);

export const specHasDefaults = (spec: Spec) => schemas(spec).some((s) => schemaHas(s, (x) => x.default !== undefined && x.default !== null));

const hasKubernetesExtensions = (s: JSONSchemaProps) =>
  s['x-kubernetes-embedded-resource'] === true ||
  (s['x-kubernetes-preserve-unknown-fields'] !== undefined && s['x-kubernetes-preserve-unknown-fields'] !== null) ||
  s['x-kubernetes-int-or-string'] === true ||
  !!s['x-kubernetes-list-map-keys']?.length ||
  (s['x-kubernetes-list-type'] !== undefined && s['x-kubernetes-list-type'] !== null) ||
  !!s['x-kubernetes-validations']?.length;

const hasStatus = (sub: Subresources | undefined | null) => !!sub && sub.status !== undefined && sub.status !== null;
const perVersion = (spec: Spec, field: 'schema' | 'subresources') => spec.versions.some((v) => v[field] !== undefined && v[field] !== null);

function subresourcesFor(spec: Spec, name: string): Subresources | undefined {
  if (!perVersion(spec, 'subresources')) return spec.subresources;
  return spec.versions.find((v) => v.name === name)?.subresources ?? undefined;
}

function validateVersion(v: Version, p: FieldPath, statusEnabled: boolean, opts: SpecOptions): FieldError[] {
  const errs = validateDeprecationWarning(v, p);
  errs.push(...validateCRDSchema(v.schema?.openAPIV3Schema, statusEnabled, forVersion(opts, v.name), p.child('schema')));
  errs.push(...validateSubresources(v.subresources ?? undefined, p.child('subresources')));
  (v.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c, p.child('additionalPrinterColumns').index(i))));
  if (v.selectableFields?.length) {
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) errs.push(fieldErrors.invalid(p.child('selectableFields'), '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    else {
      errs.push(...selectableFieldsSchemaError(schema, p));
      errs.push(...validateSelectableFields(v.selectableFields, schema, p.child('selectableFields'), opts.allowTooManySelectableFields.has(v.name ?? '')));
    }
  }
  return errs;
}

export function validateSpec(spec: Spec, optsIn: SpecOptions, p: FieldPath): FieldError[] {
  const opts = { ...optsIn };
  const errs: FieldError[] = [];
  const group = p.child('group');
  if (!spec.group) errs.push(fieldErrors.required(group));
  else {
    const msgs = isDNS1123Subdomain(spec.group);
    if (msgs.length) errs.push(fieldErrors.invalid(group, spec.group, msgs.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(fieldErrors.invalid(group, spec.group, 'should be a domain with at least one dot'));
  }
  errs.push(...validateEnumString(p.child('scope'), spec.scope, ['Cluster', 'Namespaced'], true));
  // Pruning needs structural schemas.
  if (!spec.preserveUnknownFields) opts.requireStructuralSchema = true;
  if (!spec.validation?.openAPIV3Schema) {
    spec.versions.forEach((v, i) => {
      if (v.schema?.openAPIV3Schema) return;
      const sp = p.child('versions').index(i).child('schema', 'openAPIV3Schema');
      if (opts.requireOpenAPISchema) errs.push(fieldErrors.required(sp));
      else if (!spec.preserveUnknownFields && v.served) errs.push(fieldErrors.required(sp, 'because otherwise all fields are pruned'));
    });
  }
  if (opts.allowDefaults && specHasDefaults(spec)) {
    opts.requireStructuralSchema = true;
    if (spec.preserveUnknownFields) errs.push(fieldErrors.invalid(p.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
  }
  if (schemas(spec).some((s) => schemaHas(s, hasKubernetesExtensions))) opts.requireStructuralSchema = true;

  let storage = 0;
  const names = new Set<string>();
  let unique = true;
  spec.versions.forEach((v, i) => {
    const vp = p.child('versions').index(i);
    if (v.storage) storage++;
    if (names.has(v.name ?? '')) unique = false;
    names.add(v.name ?? '');
    const msgs = isDNS1035Label(v.name ?? '');
    if (msgs.length) errs.push(fieldErrors.invalid(vp.child('name'), v.name ?? '', msgs.join(',')));
    errs.push(...validateVersion(v, vp, hasStatus(subresourcesFor(spec, v.name ?? '')), opts));
  });
  // Top-level and per-version values cannot both be set here: the v1 form only has per-version ones, and conversion moves shared ones up.
  const versions = new RenderedValue(renderVersions(spec.versions));
  if (!unique) errs.push(fieldErrors.invalid(p.child('versions'), versions, 'must contain unique version names'));
  if (storage !== 1) errs.push(fieldErrors.invalid(p.child('versions'), versions, 'must have exactly one version marked as storage version'));
  if (spec.version) {
    const msgs = isDNS1035Label(spec.version);
    if (msgs.length) errs.push(fieldErrors.invalid(p.child('version'), spec.version, msgs.join(',')));
  }
  const n = spec.names;
  for (const field of ['plural', 'singular', 'kind', 'listKind'] as const) if (!n[field]) errs.push(fieldErrors.required(p.child('names', field)));
  errs.push(...validateNames(n, p.child('names')));
  const anyStatus = hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));
  errs.push(...validateCRDSchema(spec.validation?.openAPIV3Schema, anyStatus, forVersion(opts, spec.version), p.child('validation')));
  errs.push(...validateSubresources(spec.subresources, p.child('subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c, p.child('additionalPrinterColumns').index(i))));
  if (spec.selectableFields?.length) {
    const schema = (spec.validation as Validation | undefined)?.openAPIV3Schema;
    if (!spec.validation) errs.push(fieldErrors.invalid(p.child('selectableFields'), '', 'may only be set when validations.schema is included'));
    else if (schema) {
      errs.push(...selectableFieldsSchemaError(schema, p));
      errs.push(...validateSelectableFields(spec.selectableFields, schema, p.child('selectableFields'), opts.allowTooManySelectableFields.has('')));
    }
  }
  if (spec.conversion && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(fieldErrors.invalid(p.child('conversion').child('strategy'), spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(
    ...validateConversion(spec.conversion, p.child('conversion'), {
      requireRecognizedReviewVersion: opts.requireRecognizedReviewVersion,
      allowInvalidCABundle: opts.allowInvalidCABundle,
      crypto: opts.crypto,
    }),
  );
  return errs;
}
