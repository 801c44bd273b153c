/**
 * ClusterRole aggregation (upstream clusterroleaggregation controller, one sync): the rules an
 * aggregated ClusterRole should hold are those of every other ClusterRole matched by any of its
 * clusterRoleSelectors, selector by selector, roles by name, without duplicates. Pure: the caller
 * passes every ClusterRole (e.g. from the watch cache) and writes the result.
 */
import { compareGoStrings } from '../../machinery/go-string-order';
import { labelSelectorAsSelector, MetaLabelSelector } from '../../machinery/label-selector';
import { normalizeRule, ruleObject } from './covers';
import type { PolicyRule } from './policy-rule';

/** The parts of a ClusterRole aggregation reads. */
export interface ClusterRoleLike {
  metadata: { name?: string; labels?: Record<string, string> | null };
  rules?: readonly PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: readonly MetaLabelSelector[] | null } | null;
}

/**
 * The rules `role` should have, or undefined when it has no aggregationRule (its rules are its own).
 * Throws LabelSelectorError for a selector that cannot be converted, as upstream's sync fails.
 */
export function aggregatedRules(role: ClusterRoleLike, allClusterRoles: readonly ClusterRoleLike[]): PolicyRule[] | undefined {
  const aggregation = role.aggregationRule;
  if (aggregation === undefined || aggregation === null) return undefined;
  const byName = [...allClusterRoles].sort((a, b) => compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? ''));
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const selector of aggregation.clusterRoleSelectors ?? []) {
    const matcher = labelSelectorAsSelector(selector);
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name || !matcher.matches(other.metadata.labels ?? {})) continue;
      for (const rule of other.rules ?? []) {
        // Upstream's semantic equality: an absent list equals an empty one.
        const key = JSON.stringify(normalizeRule(rule));
        if (!seen.has(key)) rules.push(ruleObject(rule));
        seen.add(key);
      }
    }
  }
  return rules;
}
