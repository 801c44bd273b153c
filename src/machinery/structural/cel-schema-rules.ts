/**
 * The CEL part of upstream's CRD schema validation (apiextensions
 * validation.go with its CELSchemaContext), over one version's structural
 * schema: every node's rules compiled with `self` typed from the node, each
 * rule's estimated cost times how often the node can occur in an object (the
 * product of the maxItems/maxProperties above it, else what fits in a
 * request) held to the per-expression limit, all of them summed against the
 * limit for the schema, `oldSelf` refused below lists and maps that cannot
 * correlate old and new values, optionalOldSelf refused without `oldSelf`.
 * Errors come children first, as upstream's recursion reports them. The
 * compiled tree is also what the runtime validator walks.
 */
import { costErrorMessage, maxCardinality, ruleCost, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from '../cel';
import { FieldError, fieldErrors, FieldPath } from '../field-errors';
import { compileNodeRules, type NodeRules } from './cel-rule-compile';
import { goRuleValue } from './cel-go-values';
import { additionalPropertiesSchema, isSet, itemsSchema, JSONSchemaProps, sortedKeys } from './json-schema-props';

/** The schema nodes that carry rules, and the way down to them. */
export interface RuleTree {
  readonly schema: JSONSchemaProps;
  readonly node?: NodeRules;
  /** Properties whose subtree has rules, in sorted order. */
  readonly properties?: ReadonlyArray<readonly [string, RuleTree]>;
  readonly additionalProperties?: RuleTree;
  readonly items?: RuleTree;
}

/** A version schema's compiled rules; `root` is undefined when it has none. */
export interface CompiledRules {
  readonly root?: RuleTree;
}

export interface CelRuleOptions {
  /** Upstream skips the per-expression limit for versions whose schema an update left unchanged. */
  readonly suppressPerExpressionCost?: boolean;
  /** Nodes whose subtree has schema errors: upstream does not compile their rules. */
  readonly skip?: ReadonlySet<JSONSchemaProps>;
}

export interface SchemaRulesResult {
  readonly errors: FieldError[];
  readonly rules: CompiledRules;
  /** The estimated cost of all rules and messageExpressions, as held to STATIC_ESTIMATED_CRD_COST_LIMIT. */
  readonly totalCost: number;
}

interface RuleCost {
  readonly path: FieldPath;
  readonly cost: number;
}

interface Walk {
  readonly opts: CelRuleOptions;
  readonly errors: FieldError[];
  total: number;
  /** The costliest expressions (at least 1% of the limit), at most four, costliest first. */
  expensive: RuleCost[];
}

const noTypeInfo = 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations';
/** Map types whose entries upstream can pair with their old values (granular is the default). */
const correlatableMap = (t: string | undefined) => t === undefined || t === null || t === 'granular' || t === 'atomic';

function observe(w: Walk, path: FieldPath, cost: number): void {
  w.total = Math.min(w.total + cost, 2 ** 64 - 1);
  if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
  w.expensive = [...w.expensive, { path, cost }].sort((a, b) => b.cost - a.cost).slice(0, 4);
}

/** How many children a node multiplies its subtree by: maxItems, maxProperties of a map, 1 for a struct; undefined when unbounded. */
function maxElements(s: JSONSchemaProps): number | undefined {
  if (s.type === 'object') return isSet(s.additionalProperties) ? (s.maxProperties === undefined ? undefined : Math.max(0, s.maxProperties)) : 1;
  if (s.type === 'array') return s.maxItems === undefined ? undefined : Math.max(0, s.maxItems);
  return 1;
}

function nodeErrors(w: Walk, nr: NodeRules, p: FieldPath, bounds: (number | undefined)[], uncorrelatable: FieldPath | undefined): void {
  const vp = p.child('x-kubernetes-validations');
  if (!nr.decl) {
    w.errors.push(fieldErrors.internal(vp, noTypeInfo));
    return;
  }
  const cardinality = maxCardinality(bounds, nr.decl.minSerializedSize);
  nr.rules.forEach((cr, i) => {
    const rp = vp.index(i);
    const cost = ruleCost(cr.maxCost, cardinality);
    if (!w.opts.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
      w.errors.push(fieldErrors.forbidden(rp.child('rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    }
    observe(w, rp.child('rule'), cost);
    if (cr.error) w.errors.push(fieldErrors.invalid(rp.child('rule'), goRuleValue(cr.rule), cr.error));
    if (cr.messageExpressionError) w.errors.push(fieldErrors.invalid(rp.child('messageExpression'), goRuleValue(cr.rule), cr.messageExpressionError));
    else if (cr.messageExpression) {
      // Unlike the rule, the message is estimated once: upstream does not multiply it by the cardinality.
      const msgCost = cr.messageExpressionMaxCost;
      if (!w.opts.suppressPerExpressionCost && msgCost > STATIC_ESTIMATED_COST_LIMIT) {
        w.errors.push(fieldErrors.forbidden(rp.child('messageExpression'), costErrorMessage('estimated messageExpression cost', msgCost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      observe(w, rp.child('messageExpression'), msgCost);
    }
    if (cr.usesOldSelf) {
      if (uncorrelatable) {
        w.errors.push(fieldErrors.invalid(rp.child('rule'), cr.rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
      }
    } else if (cr.rule.optionalOldSelf !== undefined && cr.rule.optionalOldSelf !== null) {
      w.errors.push(fieldErrors.invalid(rp.child('optionalOldSelf'), cr.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
}

function walk(w: Walk, s: JSONSchemaProps, p: FieldPath, bounds: (number | undefined)[], uncorrelatable: FieldPath | undefined, isRoot: boolean): RuleTree | undefined {
  const below = [...bounds, maxElements(s)];
  const ap = additionalPropertiesSchema(s);
  const additionalProperties = ap && walk(w, ap, p.child('additionalProperties'), below, uncorrelatable, false);
  const properties: [string, RuleTree][] = [];
  const propsUncorrelatable = correlatableMap(s['x-kubernetes-map-type']) ? uncorrelatable : (uncorrelatable ?? p);
  for (const k of sortedKeys(s.properties)) {
    const t = walk(w, s.properties![k], p.child('properties').key(k), below, propsUncorrelatable, false);
    if (t) properties.push([k, t]);
  }
  const itemSchema = itemsSchema(s);
  // Only map lists pair old and new items; other items have no oldSelf.
  const itemsUncorrelatable = s['x-kubernetes-list-type'] === 'map' ? uncorrelatable : (uncorrelatable ?? p);
  const items = itemSchema && walk(w, itemSchema, p.child('items'), below, itemsUncorrelatable, false);
  let node: NodeRules | undefined;
  if (s['x-kubernetes-validations']?.length && !w.opts.skip?.has(s)) {
    node = compileNodeRules(s, isRoot || !!s['x-kubernetes-embedded-resource']);
    nodeErrors(w, node, p, bounds, uncorrelatable);
  }
  if (!node && !additionalProperties && !properties.length && !items) return undefined;
  return {
    schema: s,
    ...(node && { node }),
    ...(properties.length && { properties }),
    ...(additionalProperties && { additionalProperties }),
    ...(items && { items }),
  };
}

/**
 * Compiles every rule of a version's schema (the resource root at `path`,
 * e.g. `spec.validation.openAPIV3Schema`) and reports what upstream's CRD
 * validation reports about them, the total-cost errors last.
 */
export function compileSchemaRules(schema: JSONSchemaProps, path: FieldPath, opts: CelRuleOptions = {}): SchemaRulesResult {
  const w: Walk = { opts, errors: [], total: 0, expensive: [] };
  const root = walk(w, schema, path, [], undefined, true);
  if (w.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of w.expensive) w.errors.push(fieldErrors.forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    w.errors.push(fieldErrors.forbidden(path, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', w.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return { errors: w.errors, rules: root ? { root } : {}, totalCost: w.total };
}

const compiledCache = [new WeakMap<JSONSchemaProps, CompiledRules>(), new WeakMap<JSONSchemaProps, CompiledRules>()];

/**
 * A served schema's compiled rules, once per schema object. `isResourceRoot`
 * is false only for a subtree that is not a resource (a default's node).
 */
export function compiledRulesFor(schema: JSONSchemaProps, isResourceRoot = true): CompiledRules {
  const cache = compiledCache[isResourceRoot ? 1 : 0];
  let out = cache.get(schema);
  if (!out) {
    const w: Walk = { opts: {}, errors: [], total: 0, expensive: [] };
    const root = walk(w, schema, FieldPath.root(''), [], undefined, isResourceRoot);
    cache.set(schema, (out = root ? { root } : {}));
  }
  return out;
}
