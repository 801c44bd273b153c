/**
 * Whether one RBAC policy rule allows one request (upstream RuleAllows and the rbac/v1 evaluation
 * helpers): verbs, API groups and resources match exactly or by "*"; a rule resource
 * "pods/log" matches that subresource only, and "<star>/log" any resource's log;
 * resourceNames, when given, must contain the object's name; a non-resource URL matches exactly,
 * by "*", or as a prefix when it ends in "*". Pure: no storage, no clock.
 */

/** A PolicyRule as stored in a Role or ClusterRole; lists may be absent or null. */
export interface PolicyRule {
  verbs?: readonly string[] | null;
  apiGroups?: readonly string[] | null;
  resources?: readonly string[] | null;
  resourceNames?: readonly string[] | null;
  nonResourceURLs?: readonly string[] | null;
}

/** The request facts a rule is matched against (upstream authorizer.Attributes). */
export interface RuleAttributes {
  verb: string;
  /** An API object request (true), or a plain path such as /healthz (false). */
  resourceRequest: boolean;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  /** The object's name; empty for collections and creates. */
  name?: string;
  /** The URL path of a non-resource request. */
  path?: string;
}

export const ALL = '*';

const list = (v: readonly string[] | null | undefined): readonly string[] => v ?? [];

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return list(rule.verbs).some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return list(rule.apiGroups).some((g) => g === ALL || g === group);
}

/** `combined` is "resource" or "resource/subresource"; "<star>/sub" matches any resource's `sub`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return list(rule.resources).some((r) => {
    if (r === ALL || r === combined) return true;
    return subresource !== '' && r === `*/${subresource}`;
  });
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = list(rule.resourceNames);
  return names.length === 0 || names.includes(name);
}

/** Exact, "*", or a prefix ending in "*" (trailing stars all trimmed, as upstream's TrimRight). */
export function nonResourceURLCovers(ruleURL: string, path: string): boolean {
  if (ruleURL === ALL || ruleURL === path) return true;
  return ruleURL.endsWith('*') && path.startsWith(ruleURL.replace(/\*+$/, ''));
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return list(rule.nonResourceURLs).some((u) => nonResourceURLCovers(u, path));
}

export function ruleAllows(rule: PolicyRule, attrs: RuleAttributes): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.resourceRequest) return nonResourceURLMatches(rule, attrs.path ?? '');
  const resource = attrs.resource ?? '';
  const sub = attrs.subresource ?? '';
  const combined = sub ? `${resource}/${sub}` : resource;
  return apiGroupMatches(rule, attrs.apiGroup ?? '') && resourceMatches(rule, combined, sub) && resourceNameMatches(rule, attrs.name ?? '');
}

export function rulesAllow(rules: readonly PolicyRule[], attrs: RuleAttributes): boolean {
  return rules.some((r) => ruleAllows(r, attrs));
}
