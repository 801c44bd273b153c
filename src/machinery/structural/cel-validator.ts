/**
 * Running a version's `x-kubernetes-validations` on a custom resource, as
 * upstream's cel.Validator does: every rule at every non-null value its node
 * applies to, parents before children; transition rules only where an old
 * value correlates (unless optionalOldSelf); the message from
 * messageExpression, message or `failed rule: <rule>`; the error type from
 * reason and its path from fieldPath; one cost budget for the whole object,
 * after which nothing more runs. On update, a failing rule that does not use
 * oldSelf on a value equal to its old one gives a warning, not an error
 * (CRDValidationRatcheting).
 */
import { celOptional, celValue, evaluate, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, toCelValue, type OpenApiSchema } from '../cel';
import { errorText, FieldError, FieldPath } from '../field-errors';
import { isPlainObject, ownValue } from '../object';
import { Correlation, type CorrelatedSchema } from './cel-correlation';
import { budgetError, evalFailure, messageFor, ruleFailure, stopBudget, type Run } from './cel-messages';
import type { NodeRules } from './cel-rule-compile';
import { compiledRulesFor, type CompiledRules, type RuleTree } from './cel-schema-rules';
import { additionalPropertiesSchema, itemsSchema, sortedKeys, type JSONSchemaProps } from './json-schema-props';
import { childPath, indexPath, keyPath, OptionalPath } from './optional-path';
import { mapListKey } from './validation-rules';

export interface CelValidationOptions {
  /** Where the value sits; upstream validates a custom resource from a nil path, so root errors read `<nil>`. */
  readonly path?: FieldPath;
  /** Cost budget for this call; RUNTIME_CEL_COST_BUDGET by default. */
  readonly budget?: number;
  /** Errors on values unchanged from `old` become warnings; on by default when `old` is given. */
  readonly ratcheting?: boolean;
}

export interface CelValidationResult {
  readonly errors: FieldError[];
  /** Ratcheted errors, as upstream's warning texts (`<path>: <error>`). */
  readonly warnings: string[];
  /** Negative once the budget ran out (nothing ran after that). */
  readonly remainingBudget: number;
}

export type CelValidator = (obj: unknown, old: unknown, options?: CelValidationOptions) => CelValidationResult;

/** Correlation over the schema as written. */
const propsReads: CorrelatedSchema<JSONSchemaProps> = {
  field: (s, name) => ownValue(s.properties, name) ?? additionalPropertiesSchema(s),
  mapList: (s) => {
    const items = itemsSchema(s);
    return s.type === 'array' && s['x-kubernetes-list-type'] === 'map' && items ? { items, keys: s['x-kubernetes-list-map-keys'] ?? [] } : undefined;
  },
};

/** The correlation of this value with its old one, else the nearest ancestor's (upstream's ratchetingOptions). */
interface Ratchet {
  readonly cur?: Correlation<JSONSchemaProps>;
  readonly nearest?: Correlation<JSONSchemaProps>;
}

function keyRatchet(r: Ratchet, k: string): Ratchet {
  if (!r.cur) return r;
  // apiVersion and kind read the same on both sides after conversion: changes to them cannot be seen.
  if (!r.nearest && (k === 'apiVersion' || k === 'kind')) return {};
  return { cur: r.cur.key(k), nearest: r.cur };
}

const indexRatchet = (r: Ratchet, i: number): Ratchet => (r.cur ? { cur: r.cur.index(i), nearest: r.cur } : r);
const unchanged = (r: Ratchet) => (r.cur ? r.cur.deepEqual() : (r.nearest?.deepEqual() ?? false));
const present = (v: unknown) => v !== undefined && v !== null;

function evalNode(run: Run, nr: NodeRules, value: unknown, old: unknown, path: OptionalPath, r: Ratchet): void {
  if (!nr.decl || nr.rules.length === 0) return;
  const field = path ? path.toString() : '<nil>';
  if (run.budget <= 0) return stopBudget(run, budgetError(field, nr.typeName));
  const schema = nr.schema as OpenApiSchema;
  // Converted once for all the node's rules (an activation would convert on every read).
  const self = celValue(toCelValue(value, schema));
  const hasOld = present(old);
  const oldSelf = nr.usesOldSelf && hasOld ? celValue(toCelValue(old, schema)) : undefined;
  const activation: Record<string, unknown> = oldSelf === undefined ? { self } : { self, oldSelf };
  for (const cr of nr.rules) {
    if (cr.error) {
      run.errors.push(evalFailure(field, nr.typeName, `rule compile error: ${cr.error}`));
      continue;
    }
    if (!cr.program || (cr.usesOldSelf && !hasOld && !cr.optionalOldSelf)) continue;
    const ruleActivation = cr.optionalOldSelf ? { self, oldSelf: celOptional(oldSelf) } : activation;
    const res = evaluate(cr.program, ruleActivation, { costLimit: PER_CALL_LIMIT });
    if (res.cost > run.budget) return stopBudget(run, budgetError(field, nr.typeName));
    run.budget -= res.cost;
    if (res.error !== undefined) {
      const failure = ruleFailure(field, nr.typeName, res.error, cr.rule);
      run.errors.push(failure.error);
      if (failure.stop) return void (run.stopped = true);
      continue;
    }
    if (res.value === true) continue;
    const at = cr.fieldPath ? childPath(path, cr.fieldPath).toString() : field;
    const ratchet = !cr.usesOldSelf && unchanged(r);
    const add = (e: FieldError) => (ratchet ? run.warnings.push(errorText(e)) : run.errors.push(e));
    const shown = nr.typeName === 'object' || nr.typeName === 'array' ? undefined : { value };
    // messageExpressions see the plain activation, as upstream's do (oldSelf absent without an old value).
    messageFor(run, cr, activation, at, nr.typeName, shown, add);
    if (run.stopped) return;
  }
}

function walk(run: Run, tree: RuleTree, value: unknown, old: unknown, path: OptionalPath, r: Ratchet): void {
  if (!present(value)) return;
  if (tree.node) evalNode(run, tree.node, value, old, path, r);
  if (run.stopped) return;
  if (isPlainObject(value)) {
    const oldMap = isPlainObject(old) ? old : undefined;
    if (tree.additionalProperties) {
      for (const k of sortedKeys(value)) {
        walk(run, tree.additionalProperties, value[k], oldMap?.[k], keyPath(path, k), keyRatchet(r, k));
        if (run.stopped) return;
      }
    }
    for (const [k, sub] of tree.properties ?? []) {
      if (value[k] === undefined) continue;
      walk(run, sub, value[k], oldMap?.[k], childPath(path, k), keyRatchet(r, k));
      if (run.stopped) return;
    }
  } else if (Array.isArray(value) && tree.items) {
    const s = tree.schema;
    const keys = s['x-kubernetes-list-map-keys'] ?? [];
    const oldByKey = new Map<string, unknown>();
    // Only map lists pair items with old ones (the first old item of a key wins).
    if (s['x-kubernetes-list-type'] === 'map' && Array.isArray(old)) {
      for (const item of old) {
        const k = mapListKey(item, keys);
        if (k !== undefined && !oldByKey.has(k)) oldByKey.set(k, item);
      }
    }
    for (let i = 0; i < value.length; i++) {
      const k = oldByKey.size ? mapListKey(value[i], keys) : undefined;
      walk(run, tree.items, value[i], k === undefined ? undefined : oldByKey.get(k), indexPath(path, i), indexRatchet(r, i));
      if (run.stopped) return;
    }
  }
}

/** The validator for compiled rules: build it once per version schema, call it per object. */
export function celValidator(rules: CompiledRules): CelValidator {
  const root = rules.root;
  return (obj, old, options = {}) => {
    const run: Run = { budget: options.budget ?? RUNTIME_CEL_COST_BUDGET, stopped: false, errors: [], warnings: [] };
    if (root) {
      const ratcheting = (options.ratcheting ?? true) && present(old);
      const r: Ratchet = ratcheting ? { cur: new Correlation(obj, old, root.schema, propsReads) } : {};
      walk(run, root, obj, old, options.path, r);
    }
    return { errors: run.errors, warnings: run.warnings, remainingBudget: run.stopped ? -1 : run.budget };
  };
}

const validators = new WeakMap<JSONSchemaProps, CelValidator>();

/** The validator of a served version's schema (a resource root), built once per schema object. */
export function celValidatorFor(schema: JSONSchemaProps): CelValidator {
  let v = validators.get(schema);
  if (!v) validators.set(schema, (v = celValidator(compiledRulesFor(schema))));
  return v;
}
