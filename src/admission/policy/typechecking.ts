/**
 * Type checking of a policy for its status (validating/typechecking.go): each validation
 * and messageExpression is compiled again with `object`/`oldObject` typed from the schema
 * of every kind the matchConstraints name (at most 10, sorted by group, version, kind;
 * rules with wildcards are skipped) and `params` from the paramKind's schema. What does not
 * compile becomes a `status.typeChecking.expressionWarnings` entry, as upstream words it:
 * `<group>/<version>, Kind=<kind>: ERROR: <input>:1:8: undefined field 'x' ...`.
 * A kind without a schema is not checked; a paramKind without one leaves `params` undeclared
 * (as upstream does). Groups print as served (svc.io).
 */
import { schemaDeclType, type CelT, type OpenApiSchema } from '../../machinery/cel';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { deref, kindSchema, type Schema } from '../../machinery/schema/schema';
import { policyEnvironment } from './cel-env';
import { compileAs, compileVariables } from './compile';
import { findKind, namesGroup, parseGroupVersion } from './equivalence';
import type { ExpressionWarning } from '../../resources/validating-admission-policy';
import type { PolicyObject } from './policy-types';

export type { ExpressionWarning };

const MAX_TYPES_TO_CHECK = 10;

/** A declared kind's schema with its references inlined; a type met again inside itself is left untyped. */
function inline(s: Schema | undefined, path: readonly Schema[] = []): OpenApiSchema | undefined {
  if (!s) return undefined;
  const target = s.$ref ? deref(s) : s;
  if (!target || path.includes(target)) return { 'x-kubernetes-preserve-unknown-fields': true };
  const inner = [...path, target];
  const out: OpenApiSchema = {};
  for (const key of ['type', 'format', 'required', 'enum', 'maxLength', 'maxItems', 'maxProperties', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource'] as const) {
    if (target[key] !== undefined) (out as Record<string, unknown>)[key] = target[key];
  }
  if (target.properties) out.properties = Object.fromEntries(Object.entries(target.properties).map(([k, v]) => [k, inline(v, inner)!]));
  if (target.items) out.items = inline(target.items, inner);
  if (typeof target.additionalProperties === 'object') out.additionalProperties = inline(target.additionalProperties, inner);
  else if (target.additionalProperties !== undefined) out.additionalProperties = target.additionalProperties;
  return out;
}

const declTypes = new WeakMap<ResourceDefinition, CelT | null>();

function declTypeOf(def: ResourceDefinition): CelT | undefined {
  let t = declTypes.get(def);
  if (t === undefined) {
    let schema: OpenApiSchema | undefined;
    try {
      schema = inline(kindSchema(def));
    } catch {
      schema = undefined;
    }
    t = (schema && schemaDeclType(schema, true, `${def.kind}`)?.type) ?? null;
    declTypes.set(def, t);
  }
  return t ?? undefined;
}

const gvkString = (d: ResourceDefinition) => `${d.group}/${d.version}, Kind=${d.kind}`;

/** The kinds the policy's rules name exactly, sorted as upstream sorts them. */
export function typesToCheck(policy: PolicyObject, served: readonly ResourceDefinition[]): ResourceDefinition[] {
  const found = new Set<ResourceDefinition>();
  for (const rule of policy.spec?.matchConstraints?.resourceRules ?? []) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (!groups.length || groups.some((g) => g.includes('*')) || !versions.length || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    for (const g of [...groups].sort()) {
      for (const v of [...versions].sort()) {
        for (const r of [...resources].sort()) {
          for (const d of served) {
            if (d.version !== v || d.plural !== r || !namesGroup(g, d)) continue;
            found.add(d);
            if (found.size === MAX_TYPES_TO_CHECK) return sortKinds([...found]);
          }
        }
      }
    }
  }
  return sortKinds([...found]);
}

const sortKinds = (ds: ResourceDefinition[]) => ds.sort((a, b) => (a.group !== b.group ? cmp(a.group, b.group) : a.version !== b.version ? cmp(a.version, b.version) : cmp(a.kind, b.kind)));
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The policy's expression warnings against the served kinds' schemas (empty when all compile). */
export function typeCheck(policy: PolicyObject, served: readonly ResourceDefinition[]): ExpressionWarning[] {
  const spec = policy.spec ?? {};
  const kinds = typesToCheck(policy, served).filter((d) => declTypeOf(d));
  if (!kinds.length) return [];
  let params: CelT | undefined;
  if (spec.paramKind) {
    const gv = parseGroupVersion(spec.paramKind.apiVersion ?? '');
    const def = gv && findKind(served, gv.group, gv.version, spec.paramKind.kind ?? '');
    params = def ? declTypeOf(def) : undefined;
  }
  const hasParams = params !== undefined;
  const envs = kinds.map((d) => {
    const object = declTypeOf(d)!;
    const { types } = compileVariables(spec.variables ?? [], hasParams, { object, params });
    return { d, env: policyEnvironment({ hasParams, hasAuthorizer: true, variables: types, object, params }) };
  });
  const check = (expression: string): string | undefined => {
    const messages = envs
      .map(({ d, env }) => {
        const c = compileAs(expression, env, []);
        return c.error === undefined ? '' : `${gvkString(d)}: ${c.error.replace(/^compilation failed: /, '')}\n`;
      })
      .filter((m) => m);
    return messages.length ? messages.join('\n') : undefined;
  };
  const warnings: ExpressionWarning[] = [];
  (spec.validations ?? []).forEach((v, i) => {
    const w = check(v.expression);
    if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (!v.messageExpression) return;
    const m = check(v.messageExpression);
    if (m) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
  });
  return warnings;
}
