/**
 * Upstream's audit Policy (audit.k8s.io/v1, accepted here as audit.svc.io/v1
 * too): the first rule that matches a request decides its level.
 */
import type { AuthzAttributes } from '../../ports/authorizer.port';

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

const levels: AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const stages: AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRuleSpec {
  level: AuditLevel;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: AuditStage[];
}

export interface AuditPolicy {
  rules: PolicyRuleSpec[];
  omitStages: AuditStage[];
}

export class AuditPolicyError extends Error {}

/** Without a policy file every request is logged at Metadata. */
export const defaultPolicy: AuditPolicy = { rules: [{ level: 'Metadata' }], omitStages: [] };

function strings(v: unknown, where: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new AuditPolicyError(`${where} must be a list of strings`);
  return v as string[];
}

function stageList(v: unknown, where: string): AuditStage[] {
  const list = strings(v, where) ?? [];
  for (const s of list) if (!stages.includes(s as AuditStage)) throw new AuditPolicyError(`${where}: unknown stage "${s}"`);
  return list as AuditStage[];
}

export function parsePolicy(doc: unknown): AuditPolicy {
  const d = doc as Record<string, unknown> | null;
  if (!d || typeof d !== 'object') throw new AuditPolicyError('the policy must be an object');
  if (d.kind !== 'Policy') throw new AuditPolicyError(`kind must be Policy, not ${String(d.kind)}`);
  if (!Array.isArray(d.rules) || d.rules.length === 0) throw new AuditPolicyError('rules: at least one rule is required');
  const rules = d.rules.map((r: Record<string, unknown>, i: number): PolicyRuleSpec => {
    const where = `rules[${i}]`;
    if (!levels.includes(r.level as AuditLevel)) throw new AuditPolicyError(`${where}.level: must be one of ${levels.join(', ')}`);
    const resources = r.resources === undefined ? undefined : (r.resources as GroupResources[]);
    if (resources !== undefined && !Array.isArray(resources)) throw new AuditPolicyError(`${where}.resources must be a list`);
    const nonResourceURLs = strings(r.nonResourceURLs, `${where}.nonResourceURLs`);
    if (nonResourceURLs && (resources || r.namespaces)) throw new AuditPolicyError(`${where}: rules cannot apply to both regular resources and non-resource URLs`);
    return {
      level: r.level as AuditLevel,
      users: strings(r.users, `${where}.users`),
      userGroups: strings(r.userGroups, `${where}.userGroups`),
      verbs: strings(r.verbs, `${where}.verbs`),
      resources,
      namespaces: strings(r.namespaces, `${where}.namespaces`),
      nonResourceURLs,
      omitStages: stageList(r.omitStages, `${where}.omitStages`),
    };
  });
  return { rules, omitStages: stageList(d.omitStages, 'omitStages') };
}

function resourceMatches(rule: PolicyRuleSpec, a: AuthzAttributes): boolean {
  if (rule.nonResourceURLs) {
    if (a.resourceRequest) return false;
    const path = a.path ?? '';
    return rule.nonResourceURLs.some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
  }
  if (!rule.resources && !rule.namespaces) return true;
  if (!a.resourceRequest) return false;
  if (rule.namespaces && !rule.namespaces.includes(a.namespace ?? '')) return false;
  if (!rule.resources) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : (a.resource ?? '');
  return rule.resources.some((gr) => {
    if ((gr.group ?? '') !== (a.apiGroup ?? '')) return false;
    if (gr.resources?.length) {
      const hit = gr.resources.some((r) => r === '*' || r === combined || (r === `${a.resource}/*`) || (a.subresource && r === `*/${a.subresource}`));
      if (!hit) return false;
    }
    return !gr.resourceNames?.length || gr.resourceNames.includes(a.name ?? '');
  });
}

export function levelFor(policy: AuditPolicy, a: AuthzAttributes): { level: AuditLevel; omitStages: AuditStage[] } {
  for (const rule of policy.rules) {
    if (rule.users && !rule.users.includes(a.user.username)) continue;
    if (rule.userGroups && !rule.userGroups.some((g) => a.user.groups.includes(g))) continue;
    if (rule.verbs && !rule.verbs.includes(a.verb)) continue;
    if (!resourceMatches(rule, a)) continue;
    return { level: rule.level, omitStages: [...policy.omitStages, ...(rule.omitStages ?? [])] };
  }
  return { level: 'None', omitStages: [] };
}
