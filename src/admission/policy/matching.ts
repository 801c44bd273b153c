/**
 * Whether a request falls under a policy's matchConstraints or a binding's matchResources,
 * as upstream's policy/matching and the webhook predicates (rules, namespace and object
 * selectors): resourceRules and excludeResourceRules with operations, groups, versions,
 * resources (`res/sub`, `*`), resourceNames and scope, then matchPolicy Equivalent through
 * the equivalent kinds. Rules are tried before the namespace is read: the answer is
 * upstream's, a request no rule matches just never costs a namespace lookup.
 */
import { ApiError, errors } from '../../machinery/status';
import { labelSelectorAsSelector, type MetaLabelSelector } from '../../machinery/label-selector';
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { AdmissionOperation } from '../../registry/admission-chain';
import { equivalentDefinitions, namesGroup } from './equivalence';
import type { MatchResourcesObject, NamedRuleObject } from './policy-types';

/** A request as matching sees it. */
export interface RequestView {
  operation: AdmissionOperation;
  definition: ResourceDefinition;
  /** Upstream's attribute: '' for cluster-scoped kinds; a Namespace's own name when one is updated or deleted. */
  namespace: string;
  name: string;
  subresource: string;
  object?: KObject;
  oldObject?: KObject;
}

export type MatchOutcome = { matches: false; error?: Error; definition?: undefined } | { matches: true; error?: undefined; definition: ResourceDefinition };

/** Reads a namespace's labels (undefined when it does not exist). */
export interface NamespaceLabels {
  labelsOf(name: string): Promise<Record<string, string> | undefined>;
}

const NO: MatchOutcome = { matches: false };

export function isNamespaceResource(def: ResourceDefinition): boolean {
  return def.group === '' && def.version === 'v1' && def.plural === 'namespaces';
}

/** `*` or `value` among `items`; loops rather than closures: every rule of every policy meets every write. */
function hasOrWildcard(items: readonly string[] | null | undefined, value: string): boolean {
  if (!items) return false;
  for (const i of items) if (i === '*' || i === value) return true;
  return false;
}

function groupMatches(groups: readonly string[] | null | undefined, def: ResourceDefinition): boolean {
  if (!groups) return false;
  for (const g of groups) if (g === '*' || namesGroup(g, def)) return true;
  return false;
}

/** `res` or `res/sub` (either side may be `*`) against the kind's plural and the request's subresource. */
function resourceMatches(r: string, plural: string, subresource: string): boolean {
  const slash = r.indexOf('/');
  if (slash < 0) return (r === '*' || r === plural) && subresource === '';
  const resOk = (slash === 1 && r[0] === '*') || (slash === plural.length && r.startsWith(plural));
  if (!resOk) return false;
  const subLength = r.length - slash - 1;
  return (subLength === 1 && r[slash + 1] === '*') || (subLength === subresource.length && r.endsWith(subresource));
}

function ruleMatches(rule: NamedRuleObject, view: RequestView, def: ResourceDefinition): boolean {
  const scope = rule.scope ?? '*';
  if (scope === 'Namespaced' && (isNamespaceResource(def) || view.namespace === '')) return false;
  if (scope === 'Cluster' && !(isNamespaceResource(def) || view.namespace === '')) return false;
  if (scope !== '*' && scope !== 'Namespaced' && scope !== 'Cluster') return false;
  if (!hasOrWildcard(rule.operations, view.operation)) return false;
  if (!groupMatches(rule.apiGroups, def)) return false;
  if (!hasOrWildcard(rule.apiVersions, def.version)) return false;
  if (!rule.resources) return false;
  for (const r of rule.resources) if (resourceMatches(r, def.plural, view.subresource)) return true;
  return false;
}

const namesMatch = (rule: NamedRuleObject, name: string) => !rule.resourceNames?.length || rule.resourceNames.includes(name);

/** The kind the rules match the request as: its own, else (Equivalent) the first equivalent kind a rule names. */
export function matchResourceRules(rules: readonly NamedRuleObject[], policy: string | undefined, view: RequestView, served: readonly ResourceDefinition[]): ResourceDefinition | undefined {
  for (const rule of rules) if (ruleMatches(rule, view, view.definition) && namesMatch(rule, view.name)) return view.definition;
  if (policy !== 'Equivalent') return undefined;
  const equivalents = equivalentDefinitions(view.definition, served, view.subresource);
  for (const rule of rules) {
    for (const def of equivalents) if (ruleMatches(rule, view, def) && namesMatch(rule, view.name)) return def;
  }
  return undefined;
}

type SelectorOutcome = { matches: boolean; error?: Error };
const MATCHES: SelectorOutcome = { matches: true };

type ParsedSelector = { selector?: ReturnType<typeof labelSelectorAsSelector>; error?: Error };

/** Parsed once per selector object: the configurations hand the same ones to every request until they change. */
const parsedSelectors = new WeakMap<MetaLabelSelector, ParsedSelector>();
const EVERYTHING: ParsedSelector = { selector: labelSelectorAsSelector({}) };

function selector(sel: MetaLabelSelector | null | undefined): ParsedSelector {
  if (!sel) return EVERYTHING;
  let p = parsedSelectors.get(sel);
  if (!p) {
    try {
      p = { selector: labelSelectorAsSelector(sel) };
    } catch (e) {
      p = { error: errors.internal(e instanceof Error ? e.message : String(e)) };
    }
    parsedSelectors.set(sel, p);
  }
  return p;
}

/** Sync unless the namespace's labels must be read: most selectors are empty, and admission runs on every write. */
function namespaceSelectorMatches(m: MatchResourcesObject, view: RequestView, labels: NamespaceLabels): SelectorOutcome | Promise<SelectorOutcome> {
  if (view.namespace === '' && !isNamespaceResource(view.definition)) return MATCHES;
  const parsed = selector(m.namespaceSelector);
  if (parsed.error) return { matches: false, error: parsed.error };
  if (parsed.selector!.isEmpty()) return MATCHES;
  // A namespace being written is matched by the labels it is getting, not the stored ones.
  if (isNamespaceResource(view.definition) && !view.subresource && view.operation !== 'DELETE') return { matches: parsed.selector!.matches(view.object?.metadata.labels ?? {}) };
  return storedLabelsMatch(parsed.selector!, view.namespace, labels);
}

async function storedLabelsMatch(s: NonNullable<ParsedSelector['selector']>, namespace: string, reader: NamespaceLabels): Promise<SelectorOutcome> {
  let labels: Record<string, string> | undefined;
  try {
    labels = await reader.labelsOf(namespace);
  } catch (e) {
    return { matches: false, error: e instanceof ApiError ? e : errors.internal((e as Error).message) };
  }
  if (!labels) return { matches: false, error: errors.notFound({ group: '', plural: 'namespaces' }, namespace) };
  return { matches: s.matches(labels) };
}

function objectSelectorMatches(m: MatchResourcesObject, view: RequestView): SelectorOutcome {
  const parsed = selector(m.objectSelector);
  if (parsed.error) return { matches: false, error: parsed.error };
  const s = parsed.selector!;
  if (s.isEmpty()) return { matches: true };
  const match = (o: KObject | undefined) => !!o && s.matches(o.metadata?.labels ?? {});
  return { matches: match(view.object) || match(view.oldObject) };
}

/** Upstream's Matcher.Matches for one MatchResources (defaults applied); a promise only when a namespace must be read. */
export function matches(m: MatchResourcesObject, view: RequestView, served: readonly ResourceDefinition[], labels: NamespaceLabels): MatchOutcome | Promise<MatchOutcome> {
  const policy = m.matchPolicy ?? undefined;
  if (m.excludeResourceRules?.length && matchResourceRules(m.excludeResourceRules, policy, view, served)) return NO;
  const definition = m.resourceRules?.length ? matchResourceRules(m.resourceRules, policy, view, served) : view.definition;
  if (!definition) return NO;
  const ns = namespaceSelectorMatches(m, view, labels);
  return ns instanceof Promise ? ns.then((n) => outcome(m, view, definition, n)) : outcome(m, view, definition, ns);
}

function outcome(m: MatchResourcesObject, view: RequestView, definition: ResourceDefinition, ns: SelectorOutcome): MatchOutcome {
  if (!ns.matches && !ns.error) return NO;
  const obj = objectSelectorMatches(m, view);
  if (!obj.matches && !obj.error) return NO;
  if (ns.error) return { matches: false, error: ns.error };
  if (obj.error) return { matches: false, error: obj.error };
  return { matches: true, definition };
}
