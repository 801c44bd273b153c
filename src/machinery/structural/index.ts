/**
 * CRD schemas (apiextensions v1 JSONSchemaProps): checking a schema the way
 * upstream's CRD validation does, and serving custom resources with it:
 * value validation with kube-openapi's messages, list-type uniqueness,
 * embedded resources, pruning, defaulting, ratcheting, the Schema tree for
 * apply and OpenAPI, and the CEL rules (x-kubernetes-validations): compiled
 * and checked with the CRD, run on every write of a custom resource.
 */
export type { JSONSchemaProps, JSONValue, ValidationRule } from './json-schema-props';
export { schemaHas } from './json-schema-props';
export { compileGoRegexp } from './go-regexp';
export { validateStructural } from './structural-check';
export { newStructuralError } from './structural-unsupported';
export { validateOpenAPISchema, mapListKeysMapSet, type SchemaRuleOptions } from './openapi-schema-check';
export { validateCRDSchema, type CRDSchemaOptions } from './crd-schema-check';
export { validateDefaults, hasUnprunedDefaults } from './defaults-check';
export { validFieldPath, type FieldPathResult } from './valid-field-path';
export { validateValue, validateValueUpdate, validateDefaultValue } from './value-validation';
export { validateListSetsAndMaps } from './list-types';
export { coerceEmbeddedResources, validateEmbeddedResources } from './embedded-resources';
export { pruneUnknownFields, pruneNonNullableNulls } from './pruning';
export { applyDefaults } from './defaulting';
export { toSchemaTree, type SchemaTreeOptions } from './schema-tree';
export { collectValidationRules, forEachRuleTarget, type RuleSite, type RuleTarget } from './validation-rules';
export { compileSchemaRules, compiledRulesFor, type CelRuleOptions, type CompiledRules, type RuleTree, type SchemaRulesResult } from './cel-schema-rules';
export type { CompiledRule, NodeRules } from './cel-rule-compile';
export { celValidator, celValidatorFor, type CelValidationOptions, type CelValidationResult, type CelValidator } from './cel-validator';
export { decodeSchemaProps, SchemaDecodeError } from './decode-schema-props';
export { decodeCustomResource, validateCustomResource, validateCustomResourceUpdate, validateCustomResourceStatusUpdate, celBlocked, type CustomResourceKind } from './custom-resource';
