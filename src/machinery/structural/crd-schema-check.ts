/**
 * Upstream's validateCustomResourceDefinitionValidation: everything checked
 * about one `openAPIV3Schema` of a CRD (at `spec.versions[i].schema`, or at
 * `spec.validation` where all versions share it). Root restrictions when the
 * status subresource is on, then the structural rules and defaults (when a
 * structural schema is required), then the OpenAPI keyword rules, then the
 * CEL rules (compiled only once the schema is structural with valid defaults,
 * and only where the subtree has no other error); NewStructural's own errors
 * show only if nothing else was found, as upstream arranges.
 */
import { FieldError, fieldErrors, FieldPath, RenderedValue } from '../field-errors';
import { goJson } from '../managed-fields/go-values';
import { compileSchemaRules } from './cel-schema-rules';
import { validateDefaults } from './defaults-check';
import type { JSONSchemaProps } from './json-schema-props';
import { SchemaRuleOptions, validateOpenAPISchema } from './openapi-schema-check';
import { validateStructural } from './structural-check';
import { newStructuralError } from './structural-unsupported';

export interface CRDSchemaOptions extends SchemaRuleOptions {
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  /** Set on update for a version whose schema is unchanged: its rules are not held to the per-expression cost limit. */
  suppressPerExpressionCost?: boolean;
}

/** The root fields in Go's struct order, with whether a root under a status subresource may set them. */
const rootFields: Array<[keyof JSONSchemaProps, boolean]> = [
  ['id', false], ['$schema', false], ['$ref', false], ['description', true], ['type', true], ['nullable', false], ['format', true], ['title', true],
  ['default', false], ['maximum', true], ['exclusiveMaximum', true], ['minimum', true], ['exclusiveMinimum', true], ['maxLength', true],
  ['minLength', true], ['pattern', true], ['maxItems', true], ['minItems', true], ['uniqueItems', true], ['multipleOf', true], ['enum', false],
  ['maxProperties', false], ['minProperties', false], ['required', true], ['items', true], ['allOf', false], ['oneOf', false], ['anyOf', false],
  ['not', false], ['properties', true], ['additionalProperties', false], ['patternProperties', false], ['dependencies', false],
  ['additionalItems', false], ['definitions', false], ['externalDocs', true], ['example', true], ['x-kubernetes-preserve-unknown-fields', true],
  ['x-kubernetes-embedded-resource', false], ['x-kubernetes-int-or-string', false], ['x-kubernetes-list-map-keys', false],
  ['x-kubernetes-list-type', false], ['x-kubernetes-map-type', false], ['x-kubernetes-validations', true],
];
const allowedNames =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';

/** Go's zero value of a field (a pointer set to false or 0 still counts as set). */
const isZero = (v: unknown) => v === undefined || v === null || v === '' || v === false;

/** With a status subresource, the root may only hold what survives extracting `properties.status`. */
function statusRootErrors(schema: JSONSchemaProps, p: FieldPath): FieldError[] {
  for (const [key, allowed] of rootFields) {
    const v = schema[key];
    if (isZero(v) && !(key === 'x-kubernetes-preserve-unknown-fields' && v === false)) continue;
    if (key === 'type') {
      if (schema.type !== 'object') {
        return [fieldErrors.invalid(p.child('openAPIV3Schema.type'), schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      }
      continue;
    }
    if (!allowed) {
      return [fieldErrors.invalid(p.child('openAPIV3Schema'), new RenderedValue(goJson(schema)), `only ${allowedNames} fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

/** `path` is where the CustomResourceValidation sits (`spec.versions[0].schema` or `spec.validation`). */
export function validateCRDSchema(schema: JSONSchemaProps | undefined, statusEnabled: boolean, opts: CRDSchemaOptions, path: FieldPath): FieldError[] {
  if (!schema) return [];
  const schemaPath = path.child('openAPIV3Schema');
  const errs: FieldError[] = statusEnabled ? statusRootErrors(schema, path) : [];
  if (schema.nullable) errs.push(fieldErrors.forbidden(path.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));
  let initErrs: FieldError[] = [];
  let celReady = false;
  if (opts.requireStructuralSchema) {
    const initError = newStructuralError(schema);
    if (initError) initErrs = [fieldErrors.invalid(schemaPath, '', initError)];
    else {
      const structural = validateStructural(schema, schemaPath);
      const defaults = structural.length ? [] : validateDefaults(schema, schemaPath, opts.requirePrunedDefaults);
      errs.push(...structural, ...defaults);
      celReady = structural.length === 0 && defaults.length === 0;
    }
  }
  const dirty = new Set<JSONSchemaProps>();
  errs.push(...validateOpenAPISchema(schema, schemaPath, opts, dirty));
  if (celReady) errs.push(...compileSchemaRules(schema, schemaPath, { suppressPerExpressionCost: opts.suppressPerExpressionCost, skip: dirty }).errors);
  return errs.length === 0 ? initErrs : errs;
}
