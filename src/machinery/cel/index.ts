/**
 * The CEL engine for CustomResourceDefinition rules and ValidatingAdmissionPolicy:
 * compile once (parse, type-check, estimate cost), evaluate many times under
 * a cost limit. See docs/cel.md.
 */
export { compileRule, type CompileOptions, type CompileResult, type Program } from './compile';
export { evaluate, PER_CALL_LIMIT, type EvalResult } from './evaluate';
export { CelEnvironment, type VariableDecl } from './environment';
export { admissionPolicyEnvironment, crdRuleEnvironment, RuleTypeError, type CrdRuleEnvironment } from './presets';
export { schemaDeclType, type DeclType, type OpenApiSchema } from './schema-types';
export { celOptional, celValue, fromCelValue, toCelValue } from './values';
export { jsonView } from './json-view';
export { escapePropertyName } from './escaping';
export { T, typeName, type CelT } from './types';
export { NAMESPACE_TYPE, REQUEST_TYPE } from './admission-types';
export { COST_LIMIT_EXCEEDED } from './cost/runtime';
export type { Range, SizeBounds } from './cost/estimate-types';
export { costErrorMessage, maxCardinality, ruleCost, RUNTIME_CEL_COST_BUDGET, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from './cost/limits';
export { AUTHORIZER_TYPE, AUTHZ_CHECK_COST, authorizerValue, RESOURCE_CHECK_TYPE, resourceCheckValue } from './library/authz';
export type { CelValue } from '@bufbuild/cel';
