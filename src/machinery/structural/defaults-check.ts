/**
 * Whether every `default` in a structural schema is valid (upstream's
 * defaulting.ValidateDefaults): it must survive pruning unchanged, carry
 * well-formed TypeMeta/ObjectMeta where it is an embedded resource, and pass
 * the value validations of its own schema node. A default inside metadata is
 * checked in the object it would land in (built around it up to the nearest
 * resource root). A default must also satisfy the CEL rules of its node and
 * below, both as an update to itself and as a create (optionalOldSelf rules),
 * within one runtime cost budget for the whole schema.
 */
import { RUNTIME_CEL_COST_BUDGET } from '../cel';
import { errorText, FieldError, fieldErrors, FieldPath, RenderedValue } from '../field-errors';
import { goJson } from '../managed-fields/go-values';
import { deepCopy, deepEqual } from '../object';
import { compiledRulesFor } from './cel-schema-rules';
import { celValidator } from './cel-validator';
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

interface Walk {
  readonly requirePruned: boolean;
  /** The schema as given and the copy marked as a resource root, for which the given one is compiled. */
  readonly top: JSONSchemaProps;
  readonly topCopy: JSONSchemaProps;
  /** CEL cost left for the remaining defaults; negative ends the walk, as upstream's. */
  budget: number;
}

export function validateDefaults(schema: JSONSchemaProps, path: FieldPath, requirePrunedDefaults: boolean): FieldError[] {
  const root = schema['x-kubernetes-embedded-resource'] ? schema : { ...schema, 'x-kubernetes-embedded-resource': true };
  const w: Walk = { requirePruned: requirePrunedDefaults, top: schema, topCopy: root, budget: RUNTIME_CEL_COST_BUDGET };
  return visit(root, path, root, [], false, w);
}

function visit(s: JSONSchemaProps, p: FieldPath, rootIn: JSONSchemaProps, stepsIn: Step[], insideMetaIn: boolean, w: Walk): FieldError[] {
  let [root, steps, insideMeta] = [rootIn, stepsIn, insideMetaIn];
  if (s['x-kubernetes-embedded-resource']) [root, steps, insideMeta] = [s, [], false];
  const errs: FieldError[] = [];
  if (isSet(s.default)) {
    errs.push(...checkDefault(s, p, root, steps, insideMeta, w));
    if (w.budget < 0) return errs;
  }
  // additionalProperties is not followed: defaults are forbidden there.
  const items = itemsSchema(s);
  if (items) errs.push(...visit(items, p.child('items'), root, [...steps, { index: true }], insideMeta, w));
  for (const k of sortedKeys(s.properties)) {
    if (w.budget < 0) return errs;
    const subInside = insideMeta || (!!s['x-kubernetes-embedded-resource'] && ['metadata', 'apiVersion', 'kind'].includes(k));
    errs.push(...visit(s.properties![k], p.child('properties').key(k), root, [...steps, { child: k }], subInside, w));
  }
  return errs;
}

/** The rules at and below `s` on its default: as an update to itself, then (if that passed) as a create. */
function celErrors(s: JSONSchemaProps, dp: FieldPath, isResourceRoot: boolean, w: Walk): FieldError[] {
  const rules = compiledRulesFor(s === w.topCopy ? w.top : s, isResourceRoot);
  if (!rules.root) return [];
  const validate = celValidator(rules);
  const value = s.default;
  const asUpdate = validate(value, value, { path: dp, budget: w.budget, ratcheting: false });
  let remaining = asUpdate.remainingBudget;
  const errs = asUpdate.errors;
  if (errs.length === 0) {
    const asCreate = validate(value, undefined, { path: dp, budget: w.budget });
    errs.push(...asCreate.errors);
    remaining = Math.min(remaining, asCreate.remainingBudget);
  }
  w.budget = remaining;
  return errs;
}

/** The default's checks in upstream's order; the CEL rules run only when the value checks before them pass. */
function checkDefault(s: JSONSchemaProps, p: FieldPath, root: JSONSchemaProps, steps: Step[], insideMeta: boolean, w: Walk): FieldError[] {
  const dp = p.child('default');
  const value = s.default;
  if (insideMeta) {
    const obj = surround(deepCopy(value), steps);
    const coerceErr = coerceEmbeddedResources(obj, root, true);
    if (coerceErr) return [fieldErrors.invalid(dp, shown(value), `must result in valid metadata: ${errorText(coerceErr)}`)];
    const metaErrs = validateEmbeddedResources(obj, root, true);
    if (metaErrs.length) return [fieldErrors.invalid(dp, shown(value), `must result in valid metadata: ${aggregate(metaErrs)}`)];
    const valueErrs = validateDefaultValue(s, value, dp);
    return valueErrs.length ? valueErrs : celErrors(s, dp, s === root, w);
  }
  const errs: FieldError[] = [];
  if (w.requirePruned) {
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
  const valueErrs = validateDefaultValue(s, value, dp);
  return [...errs, ...(valueErrs.length ? valueErrs : celErrors(s, dp, s === root, w))];
}

/** Whether some default would change when pruned (CRDs stored with such defaults keep being accepted). */
export function hasUnprunedDefaults(schema: JSONSchemaProps): boolean {
  return validateDefaults(schema, FieldPath.root(''), true).some((e) => e.detail === 'must not have unknown fields');
}
