/**
 * Whether every `default` in a structural schema is valid (upstream's
 * defaulting.ValidateDefaults): it must survive pruning unchanged, carry
 * well-formed TypeMeta/ObjectMeta where it is an embedded resource, and pass
 * the value validations of its own schema node. A default inside metadata is
 * checked in the object it would land in (built around it up to the nearest
 * resource root). The CEL rules on defaults belong to the CEL module.
 */
import { errorText, FieldError, fieldErrors, FieldPath, RenderedValue } from '../field-errors';
import { goJson } from '../managed-fields/go-values';
import { deepCopy, deepEqual } from '../object';
import { coerceEmbeddedResources, validateEmbeddedResources } from './embedded-resources';
import { isSet, itemsSchema, JSONSchemaProps, sortedKeys } from './json-schema-props';
import { pruneUnknownFields } from './pruning';
import { validateDefaultValue } from './value-validation';

type Step = { child: string } | { index: true };

/** The object `x` would sit in, `steps` below a resource root that carries the validation TypeMeta. */
function surround(x: unknown, steps: Step[]): Record<string, unknown> {
  let v = x;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    v = 'child' in step ? { [step.child]: v } : [v];
  }
  const obj = v as Record<string, unknown>;
  obj.kind ??= 'Validation';
  obj.apiVersion ??= 'validation/v1';
  return obj;
}

/** utilerrors' Aggregate text: one message alone, several in brackets. */
function aggregate(errs: FieldError[]): string {
  const texts = [...new Set(errs.map(errorText))];
  return texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
}

const shown = (v: unknown) => new RenderedValue(goJson(v));

export function validateDefaults(schema: JSONSchemaProps, path: FieldPath, requirePrunedDefaults: boolean): FieldError[] {
  const root = schema['x-kubernetes-embedded-resource'] ? schema : { ...schema, 'x-kubernetes-embedded-resource': true };
  return visit(root, path, root, [], false, requirePrunedDefaults);
}

function visit(s: JSONSchemaProps, p: FieldPath, rootIn: JSONSchemaProps, stepsIn: Step[], insideMetaIn: boolean, requirePruned: boolean): FieldError[] {
  let [root, steps, insideMeta] = [rootIn, stepsIn, insideMetaIn];
  if (s['x-kubernetes-embedded-resource']) [root, steps, insideMeta] = [s, [], false];
  const errs: FieldError[] = [];
  if (isSet(s.default)) errs.push(...checkDefault(s, p, root, steps, insideMeta, requirePruned));
  // additionalProperties is not followed: defaults are forbidden there.
  const items = itemsSchema(s);
  if (items) errs.push(...visit(items, p.child('items'), root, [...steps, { index: true }], insideMeta, requirePruned));
  for (const k of sortedKeys(s.properties)) {
    const subInside = insideMeta || (!!s['x-kubernetes-embedded-resource'] && ['metadata', 'apiVersion', 'kind'].includes(k));
    errs.push(...visit(s.properties![k], p.child('properties').key(k), root, [...steps, { child: k }], subInside, requirePruned));
  }
  return errs;
}

function checkDefault(s: JSONSchemaProps, p: FieldPath, root: JSONSchemaProps, steps: Step[], insideMeta: boolean, requirePruned: boolean): FieldError[] {
  const dp = p.child('default');
  const value = s.default;
  if (insideMeta) {
    const obj = surround(deepCopy(value), steps);
    const coerceErr = coerceEmbeddedResources(obj, root, true);
    if (coerceErr) return [fieldErrors.invalid(dp, shown(value), `must result in valid metadata: ${errorText(coerceErr)}`)];
    const metaErrs = validateEmbeddedResources(obj, root, true);
    if (metaErrs.length) return [fieldErrors.invalid(dp, shown(value), `must result in valid metadata: ${aggregate(metaErrs)}`)];
    return validateDefaultValue(s, value, dp);
  }
  const errs: FieldError[] = [];
  if (requirePruned) {
    const pruned = deepCopy(value);
    pruneUnknownFields(pruned, s, !!s['x-kubernetes-embedded-resource']);
    if (!deepEqual(pruned, value)) errs.push(fieldErrors.invalid(dp, shown(value), 'must not have unknown fields'));
  }
  const embedded = !!s['x-kubernetes-embedded-resource'];
  // Coercing normalizes metadata in place; the schema's own default stays as written.
  const coerced = deepCopy(value);
  const coerceErr = coerceEmbeddedResources(coerced, s, embedded, dp);
  if (coerceErr) return [...errs, coerceErr];
  const metaErrs = validateEmbeddedResources(coerced, s, embedded, dp);
  if (metaErrs.length) return [...errs, ...metaErrs];
  return [...errs, ...validateDefaultValue(s, value, dp)];
}

/** Whether some default would change when pruned (CRDs stored with such defaults keep being accepted). */
export function hasUnprunedDefaults(schema: JSONSchemaProps): boolean {
  return validateDefaults(schema, FieldPath.root(''), true).some((e) => e.detail === 'must not have unknown fields');
}
