/**
 * Escalation checks (upstream validation.Covers): the requested rules are broken into rules of one
 * verb, one group, one resource and at most one name (or one non-resource URL and one verb), and
 * each must be covered by a single owner rule. Also the compaction and text upstream uses to list
 * the uncovered rules in its "attempting to grant RBAC permissions not currently held" message.
 */
import { ALL, nonResourceURLCovers, PolicyRule } from './policy-rule';

/** A rule with plain arrays: absent and empty lists mean the same. */
export interface NormalRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

export function normalizeRule(r: PolicyRule): NormalRule {
  return {
    verbs: [...(r.verbs ?? [])],
    apiGroups: [...(r.apiGroups ?? [])],
    resources: [...(r.resources ?? [])],
    resourceNames: [...(r.resourceNames ?? [])],
    nonResourceURLs: [...(r.nonResourceURLs ?? [])],
  };
}

/** The rule without its empty lists, as upstream's omitempty JSON shows it. */
export function ruleObject(r: PolicyRule): PolicyRule {
  const n = normalizeRule(r);
  const out: PolicyRule = { verbs: n.verbs };
  if (n.apiGroups.length) out.apiGroups = n.apiGroups;
  if (n.resources.length) out.resources = n.resources;
  if (n.resourceNames.length) out.resourceNames = n.resourceNames;
  if (n.nonResourceURLs.length) out.nonResourceURLs = n.nonResourceURLs;
  return out;
}

/** Equivalent rule sets for upstream's semantic equality: same order, absent list = empty list. */
export function sameRules(a: readonly PolicyRule[] | null | undefined, b: readonly PolicyRule[] | null | undefined): boolean {
  const x = (a ?? []).map(normalizeRule);
  const y = (b ?? []).map(normalizeRule);
  return x.length === y.length && x.every((r, i) => JSON.stringify(r) === JSON.stringify(y[i]));
}

/** Upstream BreakdownRule: group × resource × verb (× name), then non-resource URL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const r = normalizeRule(rule);
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups) {
    for (const resource of r.resources) {
      for (const verb of r.verbs) {
        if (r.resourceNames.length === 0) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const name of r.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  for (const url of r.nonResourceURLs) for (const verb of r.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const hasAll = (set: readonly string[], wanted: readonly string[]) => wanted.every((w) => set.includes(w));

/** Owner resources cover each wanted one exactly, by "*", or "<star>/sub" for any "x/sub". */
function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(ALL)) return true;
  return wanted.every((w) => {
    if (owner.includes(w)) return true;
    const slash = w.indexOf('/');
    return slash >= 0 && owner.includes(`*/${w.slice(slash + 1)}`);
  });
}

/** Whether one owner rule covers a broken-down rule (upstream ruleCovers). */
export function ruleCovers(ownerRule: PolicyRule, subRule: PolicyRule): boolean {
  const o = normalizeRule(ownerRule);
  const s = normalizeRule(subRule);
  const verbs = o.verbs.includes(ALL) || hasAll(o.verbs, s.verbs);
  const groups = o.apiGroups.includes(ALL) || hasAll(o.apiGroups, s.apiGroups);
  const resources = resourcesCover(o.resources, s.resources);
  const urls = s.nonResourceURLs.every((path) => o.nonResourceURLs.some((owner) => nonResourceURLCovers(owner, path)));
  // An owner limited to names never covers a request for all names.
  const names = o.resourceNames.length === 0 || (s.resourceNames.length > 0 && hasAll(o.resourceNames, s.resourceNames));
  return verbs && groups && resources && urls && names;
}

export interface CoverResult {
  covered: boolean;
  /** The broken-down requested rules no owner rule covers, in request order. */
  uncovered: PolicyRule[];
}

export function rulesCover(ownerRules: readonly PolicyRule[], requestedRules: readonly PolicyRule[]): CoverResult {
  const uncovered = requestedRules.flatMap(breakdownRule).filter((sub) => !ownerRules.some((owner) => ruleCovers(owner, sub)));
  return { covered: uncovered.length === 0, uncovered };
}

/**
 * Upstream CompactRules: rules naming one group, one resource, at most one name and no URLs are
 * merged when they differ only in verbs; the others are kept as they are, first.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const others: PolicyRule[] = [];
  const simple = new Map<string, NormalRule>();
  for (const rule of rules) {
    const r = normalizeRule(rule);
    const isSimple = r.nonResourceURLs.length === 0 && r.resourceNames.length <= 1 && r.apiGroups.length === 1 && r.resources.length === 1;
    if (!isSimple) {
      others.push(ruleObject(rule));
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames]);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...r.verbs);
    else simple.set(key, r);
  }
  return [...others, ...[...simple.values()].map(ruleObject)];
}

/** Go's %q of one string: double quotes, backslash escapes, printable characters kept. */
function goQuote(s: string): string {
  const escapes: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return `"${[...s].map((c) => escapes[c] ?? (c.charCodeAt(0) < 0x20 || c === '\x7f' ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('')}"`;
}

/** Upstream CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}`. */
export function compactRuleString(rule: PolicyRule): string {
  const r = normalizeRule(rule);
  const parts: Array<[string, string[]]> = [
    ['APIGroups', r.apiGroups],
    ['Resources', r.resources],
    ['NonResourceURLs', r.nonResourceURLs],
    ['ResourceNames', r.resourceNames],
    ['Verbs', r.verbs],
  ];
  const shown = parts.filter(([, v]) => v.length > 0).map(([k, v]) => `${k}:[${v.map(goQuote).join(' ')}]`);
  return `{${shown.join(', ')}}`;
}
