/** RBAC policy evaluation for the authorizer: rule matching, escalation coverage, ClusterRole aggregation. */
export { ruleAllows, rulesAllow, type PolicyRule, type RuleAttributes } from './policy-rule';
export { breakdownRule, compactRuleString, compactRules, rulesCover, ruleCovers, sameRules, type CoverResult } from './covers';
export { aggregatedRules, type ClusterRoleLike } from './aggregation';
