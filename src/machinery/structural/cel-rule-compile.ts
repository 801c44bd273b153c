/**
 * Compiling the `x-kubernetes-validations` of one schema node, as upstream's
 * cel.Compile does: `self` typed from the node (`oldSelf` too, or as an
 * optional for optionalOldSelf rules), rules must return bool,
 * messageExpressions string, each with its worst-case cost; a rule that
 * names `oldSelf` is a transition rule. Results are cached by schema node
 * identity, so a served version compiles once however often it is read.
 */
import { CelEnvironment, compileRule, schemaDeclType, T, type DeclType, type OpenApiSchema, type Program } from '../cel';
import type { JSONSchemaProps, ValidationRule } from './json-schema-props';
import { validFieldPath } from './valid-field-path';

export interface CompiledRule {
  readonly rule: ValidationRule;
  /** Undefined for an empty rule or one that failed to compile. */
  readonly program?: Program;
  /** Upstream's detail, e.g. `compilation failed: ERROR: <input>:1:6: ...`. */
  readonly error?: string;
  readonly usesOldSelf: boolean;
  readonly optionalOldSelf: boolean;
  readonly maxCost: number;
  readonly messageExpression?: Program;
  readonly messageExpressionError?: string;
  readonly messageExpressionMaxCost: number;
  /** The rule's fieldPath as a field path relative to the node (`spec.replicas`, `[key]`). */
  readonly fieldPath?: string;
}

export interface NodeRules {
  readonly schema: JSONSchemaProps;
  /** The node's `type`, which upstream shows as the bad value of runtime errors. */
  readonly typeName: string;
  readonly isResourceRoot: boolean;
  /** Undefined when rules cannot see the node (e.g. an untyped preserve-unknown-fields node). */
  readonly decl?: DeclType;
  readonly rules: readonly CompiledRule[];
  readonly usesOldSelf: boolean;
}

const EMPTY: Omit<CompiledRule, 'rule'> = { usesOldSelf: false, optionalOldSelf: false, maxCost: 0, messageExpressionMaxCost: 0 };
const MESSAGE_PREFIX = 'compilation failed: ';

function compileOne(rule: ValidationRule, schema: JSONSchemaProps, env: () => CelEnvironment, optionalEnv: () => CelEnvironment): CompiledRule {
  if (!(rule.rule ?? '').trim()) return { rule, ...EMPTY };
  const optionalOldSelf = rule.optionalOldSelf === true;
  const ruleEnv = optionalOldSelf ? optionalEnv() : env();
  const compiled = compileRule(rule.rule, ruleEnv, { resultType: T.bool });
  if (!compiled.program) return { rule, ...EMPTY, optionalOldSelf, error: compiled.error };
  const program = compiled.program;
  let out: CompiledRule = {
    rule,
    program,
    usesOldSelf: program.references.has('oldSelf'),
    optionalOldSelf,
    maxCost: program.estimatedCost.max,
    messageExpressionMaxCost: 0,
  };
  if (rule.messageExpression) {
    const msg = compileRule(rule.messageExpression, ruleEnv, { resultType: T.string, resultTypeError: 'messageExpression must evaluate to a string' });
    if (msg.program) out = { ...out, messageExpression: msg.program, messageExpressionMaxCost: msg.program.estimatedCost.max };
    else out = { ...out, messageExpressionError: msg.error.startsWith(MESSAGE_PREFIX) ? `messageExpression ${msg.error}` : msg.error };
    // Upstream stops here when the messageExpression fails: fieldPath stays unnormalized.
    if (!msg.program) return out;
  }
  if (rule.fieldPath) {
    const fp = validFieldPath(rule.fieldPath, schema);
    if (fp.ok && fp.path) out = { ...out, fieldPath: fp.path.toString() };
  }
  return out;
}

function compileNode(schema: JSONSchemaProps, isResourceRoot: boolean): NodeRules {
  const decl = schemaDeclType(schema as OpenApiSchema, isResourceRoot, 'Object');
  const base = { schema, typeName: schema.type ?? '', isResourceRoot };
  if (!decl) return { ...base, rules: [], usesOldSelf: false };
  const self = { type: decl.type, bounds: decl.bounds };
  let env: CelEnvironment | undefined;
  let optionalEnv: CelEnvironment | undefined;
  const rules = (schema['x-kubernetes-validations'] ?? []).map((r) =>
    compileOne(
      r,
      schema,
      () => (env ??= new CelEnvironment({ self, oldSelf: self })),
      () => (optionalEnv ??= new CelEnvironment({ self, oldSelf: { type: T.optional(decl.type), bounds: decl.bounds } })),
    ),
  );
  return { ...base, decl, rules, usesOldSelf: rules.some((r) => r.usesOldSelf) };
}

// One cache per kind of node: a resource root sees apiVersion, kind and metadata.name that others do not.
const caches = [new WeakMap<JSONSchemaProps, NodeRules>(), new WeakMap<JSONSchemaProps, NodeRules>()];

/** The node's rules compiled, once per schema object (schemas are not modified once served). */
export function compileNodeRules(schema: JSONSchemaProps, isResourceRoot: boolean): NodeRules {
  const cache = caches[isResourceRoot ? 1 : 0];
  let out = cache.get(schema);
  if (!out) cache.set(schema, (out = compileNode(schema, isResourceRoot)));
  return out;
}
