/**
 * Rule matching, as upstream's predicates/rules: operation, group, version,
 * resource (`*`, `res`, `res/sub`, `res/*`, or `*` before `/sub`) and scope, where
 * a request for a Namespace counts as cluster-scoped and a namespaced rule
 * needs a request namespace. Also upstream's exemption: no webhook sees
 * writes of the admission configuration kinds themselves, so a broken
 * webhook can always be removed.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { AdmissionOperation } from '../../registry/admission-chain';
import type { Rule } from './configuration';
import { groupNames, type GroupVersionResource } from './resource-names';

export interface RuleTarget {
  operation: AdmissionOperation;
  resource: GroupVersionResource;
  subresource: string;
  /** The request's namespace as upstream's attributes carry it ('' for cluster-scoped objects). */
  namespace: string;
}

const exactOrWildcard = (items: readonly string[], requested: string) => items.some((i) => i === '*' || i === requested);

function isNamespaceResource(r: GroupVersionResource): boolean {
  return r.group === '' && r.version === 'v1' && r.resource === 'namespaces';
}

function scopeMatches(scope: string, t: RuleTarget): boolean {
  switch (scope) {
    case '*':
      return true;
    case 'Namespaced':
      return !isNamespaceResource(t.resource) && t.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(t.resource) || t.namespace === '';
    default:
      return false;
  }
}

function resourceMatches(resources: readonly string[], t: RuleTarget): boolean {
  return resources.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === t.resource.resource) && (sub === '*' || sub === t.subresource);
  });
}

export function ruleMatches(rule: Rule, t: RuleTarget): boolean {
  return (
    scopeMatches(rule.scope, t) &&
    exactOrWildcard(rule.operations, t.operation) &&
    exactOrWildcard(rule.apiGroups, t.resource.group) &&
    exactOrWildcard(rule.apiVersions, t.resource.version) &&
    resourceMatches(rule.resources, t)
  );
}

const exemptKinds = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

/** upstream's IsExemptAdmissionConfigurationResource, for admissionregistration under either spelling. */
export function isExemptFromWebhooks(def: ResourceDefinition): boolean {
  return exemptKinds.has(def.kind) && groupNames(def).includes('admissionregistration.k8s.io');
}
