/**
 * Validation of a custom resource (or part of one) against its CRD schema,
 * with kube-openapi's messages and upstream's field paths, ready for a 422:
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of
 * type integer: "string"`. `base` prefixes the paths (e.g. `status` when the
 * status subresource validates against the status schema); without it,
 * errors about the whole value sit at `<nil>` as upstream's do.
 */
import { FieldError, FieldPath } from '../field-errors';
import type { JSONSchemaProps } from './json-schema-props';
import { validateRatcheting } from './ratcheting';
import { openAPIErrorsToFieldErrors } from './value-errors';
import { compileValueSchema } from './value-schema';
import { validateNode } from './value-validator';

/** ValidateCustomResource: the OpenAPI value validations of `schema` on `value`. */
export function validateValue(schema: JSONSchemaProps, value: unknown, base?: FieldPath): FieldError[] {
  const result = validateNode(compileValueSchema(schema, 'resource'), '', value);
  return openAPIErrorsToFieldErrors(result.errors, base);
}

/**
 * ValidateCustomResourceUpdate: as validateValue, but with ratcheting (on by
 * default, as upstream's CRDValidationRatcheting) errors in parts equal to
 * their old counterparts are dropped.
 */
export function validateValueUpdate(schema: JSONSchemaProps, value: unknown, old: unknown, base?: FieldPath, ratcheting = true): FieldError[] {
  if (!ratcheting) return validateValue(schema, value, base);
  const result = validateRatcheting(compileValueSchema(schema, 'resource'), value, old);
  return openAPIErrorsToFieldErrors(result.errors, base);
}

/** A default value checked against its own schema node, as upstream's default validation builds it (no format stripping). */
export function validateDefaultValue(schema: JSONSchemaProps, value: unknown, base: FieldPath): FieldError[] {
  const result = validateNode(compileValueSchema(schema, 'default'), '', value);
  return openAPIErrorsToFieldErrors(result.errors, base);
}
