/**
 * Escalation prevention on RBAC writes, as upstream's policy-based RBAC
 * storage: a Role or ClusterRole may only grant what its writer holds
 * (unless it may `escalate`), a binding may only bind what its writer holds
 * (unless it may `bind` that role), and an aggregationRule needs full
 * authority. system:masters skips the checks.
 */
import { errors } from '../../machinery/status';
import { deepEqual, KObject } from '../../machinery/object';
import type { AdmissionCheck, StrategyContext } from '../../machinery/resource-definition';
import type { PolicyRule, RoleRefLike } from '../../ports/authorizer.port';

const group = 'rbac.authorization.svc.io';
const privilegedGroup = 'system:masters';
const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

function allowed(ctx: StrategyContext, verb: string, resource: string, name: string, namespace: string | undefined): boolean {
  return ctx.authorizer.authorize({ user: ctx.user, verb, resourceRequest: true, apiGroup: group, resource, name, namespace }).allowed;
}

const rulesOf = (o: KObject): PolicyRule[] => (Array.isArray(o.rules) ? (o.rules as PolicyRule[]) : []);

/** Admission for roles (`roles`) and cluster roles (`clusterroles`). */
export function roleAdmission(plural: 'roles' | 'clusterroles'): AdmissionCheck {
  return (op, obj, old, _sub, ctx) => {
    if (ctx.user.groups.includes(privilegedGroup)) return;
    if (op === 'update' && old && deepEqual(rulesOf(obj), rulesOf(old)) && deepEqual(obj.aggregationRule, old.aggregationRule)) return;
    const name = obj.metadata.name ?? '';
    const namespace = obj.metadata.namespace ?? '';
    const ref = { group, plural };
    // Holding `escalate` skips every check, the aggregationRule one included (as upstream).
    if (allowed(ctx, 'escalate', plural, name, namespace || undefined)) return;
    const problem = ctx.authorizer.escalationError(ctx.user, namespace, rulesOf(obj));
    if (problem) throw errors.forbidden(ref, name, problem);
    if ((obj.aggregationRule || old?.aggregationRule) && ctx.authorizer.escalationError(ctx.user, '', fullAuthority)) {
      throw errors.forbidden(ref, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  };
}

/** Admission for rolebindings and clusterrolebindings. */
export function bindingAdmission(plural: 'rolebindings' | 'clusterrolebindings'): AdmissionCheck {
  return (op, obj, old, _sub, ctx) => {
    if (ctx.user.groups.includes(privilegedGroup)) return;
    if (op === 'update' && old && deepEqual(obj.roleRef, old.roleRef) && deepEqual(obj.subjects, old.subjects)) return;
    const name = obj.metadata.name ?? '';
    const namespace = obj.metadata.namespace ?? '';
    const roleRef = obj.roleRef as RoleRefLike;
    const roleResource = roleRef.kind === 'ClusterRole' ? 'clusterroles' : 'roles';
    if (allowed(ctx, 'bind', roleResource, roleRef.name, namespace || undefined)) return;
    const ref = { group, plural };
    const rules = ctx.authorizer.rulesOfRole(namespace, roleRef);
    // Upstream answers 500 here; a reference to a missing role is the client's to fix.
    if (!rules) throw errors.forbidden(ref, name, `${roleResource}.${group} "${roleRef.name}" not found`);
    const problem = ctx.authorizer.escalationError(ctx.user, namespace, rules);
    if (problem) throw errors.forbidden(ref, name, problem);
  };
}
