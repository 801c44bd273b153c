/**
 * What upstream's NewStructural refuses before any structural rule runs
 * (`id`, `$schema`, `$ref`, patternProperties, dependencies, additionalItems,
 * definitions, an array of item schemas, preserve-unknown-fields: false), with
 * its error texts, in its visiting order. The OpenAPI rules report the same
 * problems at their own paths; these texts show only when nothing else did.
 */
import { additionalPropertiesSchema, JSONSchemaProps, nonEmpty, sortedKeys } from './json-schema-props';

function unsupportedField(s: JSONSchemaProps): string | undefined {
  if (s.id) return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (s.$ref) return "OpenAPIV3Schema '$ref' is not supported";
  if (nonEmpty(s.patternProperties)) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (nonEmpty(s.dependencies)) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined && s.additionalItems !== null) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (nonEmpty(s.definitions)) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

/** The junctors' value validations, as newValueValidation visits them (not, allOf, anyOf, oneOf). */
function valueValidationError(s: JSONSchemaProps): string | undefined {
  const nested = [...(s.not ? [s.not] : []), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  for (const n of nested) {
    const err = nestedError(n);
    if (err) return err;
  }
  return undefined;
}

function extensionsError(s: JSONSchemaProps): string | undefined {
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  return undefined;
}

const itemsArray = "OpenAPIV3Schema 'items' must be a schema, but is an array";

function nestedError(s: JSONSchemaProps): string | undefined {
  const own = unsupportedField(s) ?? valueValidationError(s) ?? extensionsError(s);
  if (own) return own;
  if (Array.isArray(s.items)) {
    if (s.items.length > 0) return itemsArray;
  } else if (s.items) {
    const err = nestedError(s.items);
    if (err) return err;
  }
  for (const k of sortedKeys(s.properties)) {
    const err = nestedError(s.properties![k]);
    if (err) return err;
  }
  const ap = additionalPropertiesSchema(s);
  return ap ? nestedError(ap) : undefined;
}

/** NewStructural's error for this schema, or undefined when it converts. */
export function newStructuralError(s: JSONSchemaProps): string | undefined {
  const own = unsupportedField(s) ?? valueValidationError(s) ?? extensionsError(s);
  if (own) return own;
  if (Array.isArray(s.items)) {
    if (s.items.length > 0) return itemsArray;
  } else if (s.items) {
    const err = newStructuralError(s.items);
    if (err) return err;
  }
  for (const k of sortedKeys(s.properties)) {
    const err = newStructuralError(s.properties![k]);
    if (err) return err;
  }
  const ap = additionalPropertiesSchema(s);
  return ap ? newStructuralError(ap) : undefined;
}
