/** Upstream's RBAC rule matching (plugin/pkg/auth/authorizer/rbac), over plain PolicyRules. */
import type { AuthzAttributes, PolicyRule } from '../../ports/authorizer.port';

const has = (list: string[] | undefined, v: string) => !!list && (list.includes('*') || list.includes(v));

function resourceMatches(rule: PolicyRule, resource: string, subresource: string | undefined): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    // "*/status" matches every resource's status subresource.
    if (subresource && r === `*/${subresource}`) return true;
  }
  return false;
}

function urlMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.slice(0, -1))) return true;
  }
  return false;
}

export function ruleAllows(rule: PolicyRule, a: Omit<AuthzAttributes, 'user'>): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (!a.resourceRequest) return urlMatches(rule, a.path ?? '');
  if (!has(rule.apiGroups, a.apiGroup ?? '')) return false;
  if (!resourceMatches(rule, a.resource ?? '', a.subresource)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(a.name ?? '');
}
