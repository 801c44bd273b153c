/**
 * The RBAC authorizer: evaluates Roles, ClusterRoles and their bindings as
 * the watch cache holds them (no storage reads on the request path). The
 * policy is indexed once per change of any RBAC kind; rules resolved for a
 * user and namespace are memoized until the next change.
 */
import type { KObject } from '../../machinery/object';
import type { UserInfo } from '../../machinery/resource-definition';
import type { AuthorizerPort, AuthzAttributes, AuthzDecision, PolicyRule, RoleRefLike } from '../../ports/authorizer.port';
import { compactRuleString, compactRules, ruleAllows, rulesCover } from '../rbac';

/** The cached objects of one kind and the change counter they reflect. */
export interface KindSnapshotSource {
  changes(): number;
  objects(): KObject[];
}

export interface RbacSources {
  roles: KindSnapshotSource;
  roleBindings: KindSnapshotSource;
  clusterRoles: KindSnapshotSource;
  clusterRoleBindings: KindSnapshotSource;
}

export const superuserGroup = 'system:masters';

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

interface Binding {
  namespace: string;
  roleRef: RoleRefLike;
  subjects: Subject[];
}

interface Index {
  version: number[];
  roles: Map<string, PolicyRule[]>;
  clusterRoles: Map<string, PolicyRule[]>;
  roleBindings: Map<string, Binding[]>;
  clusterRoleBindings: Binding[];
}

function rulesOf(o: KObject): PolicyRule[] {
  return Array.isArray(o.rules) ? (o.rules as PolicyRule[]) : [];
}

function bindingOf(o: KObject): Binding {
  return {
    namespace: o.metadata.namespace ?? '',
    roleRef: (o.roleRef ?? { kind: '', name: '' }) as RoleRefLike,
    subjects: Array.isArray(o.subjects) ? (o.subjects as Subject[]) : [],
  };
}

export function subjectMatches(s: Subject, user: UserInfo, bindingNamespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return s.name === user.username;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return !!ns && user.username === `system:serviceaccount:${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

/** A user's rules in one namespace, and the decisions already taken over them. */
interface Resolved {
  rules: PolicyRule[];
  incomplete: boolean;
  decisions: Map<string, AuthzDecision>;
}

const allowed: AuthzDecision = Object.freeze({ allowed: true, reason: 'RBAC: allowed by a binding' });
const denied: AuthzDecision = Object.freeze({ allowed: false, reason: '' });
/** Decisions remembered per user and namespace (distinct object names make distinct questions). */
const maxDecisions = 1024;

/** What a decision depends on besides the user and namespace; undefined when a field could blur the separators. */
function decisionKey(a: AuthzAttributes): string | undefined {
  if (!a.resourceRequest) {
    const path = a.path ?? '';
    return blurs(a.verb) || blurs(path) ? undefined : `n\u0000${a.verb}\u0000${path}`;
  }
  const [group, resource, sub, name] = [a.apiGroup ?? '', a.resource ?? '', a.subresource ?? '', a.name ?? ''];
  if (blurs(a.verb) || blurs(group) || blurs(resource) || blurs(sub) || blurs(name)) return undefined;
  return `r\u0000${a.verb}\u0000${group}\u0000${resource}\u0000${sub}\u0000${name}`;
}

const blurs = (field: string): boolean => field.includes('\u0000');

export class RbacAuthorizer implements AuthorizerPort {
  private index: Index | undefined;
  private memo = new Map<string, Resolved>();
  /** The same, by the user object (a remembered token's user is one object): no key to build per request. */
  private byUser = new WeakMap<UserInfo, Map<string, Resolved>>();

  constructor(private readonly sources: RbacSources) {}

  /** Whether the cache holds other RBAC objects than the index was built from (checked on every request). */
  private stale(): boolean {
    const s = this.sources;
    const v = this.index?.version;
    return !v || v[0] !== s.roles.changes() || v[1] !== s.roleBindings.changes() || v[2] !== s.clusterRoles.changes() || v[3] !== s.clusterRoleBindings.changes();
  }

  private current(): Index {
    if (!this.stale()) return this.index!;
    const s = this.sources;
    const version = [s.roles, s.roleBindings, s.clusterRoles, s.clusterRoleBindings].map((k) => k.changes());
    const roles = new Map<string, PolicyRule[]>();
    for (const r of s.roles.objects()) roles.set(`${r.metadata.namespace}/${r.metadata.name}`, rulesOf(r));
    const clusterRoles = new Map<string, PolicyRule[]>();
    for (const r of s.clusterRoles.objects()) clusterRoles.set(r.metadata.name!, rulesOf(r));
    const roleBindings = new Map<string, Binding[]>();
    for (const b of s.roleBindings.objects()) {
      const ns = b.metadata.namespace ?? '';
      roleBindings.set(ns, [...(roleBindings.get(ns) ?? []), bindingOf(b)]);
    }
    const clusterRoleBindings = s.clusterRoleBindings.objects().map(bindingOf);
    this.index = { version, roles, clusterRoles, roleBindings, clusterRoleBindings };
    this.memo = new Map();
    this.byUser = new WeakMap();
    return this.index;
  }

  rulesOfRole(namespace: string, ref: RoleRefLike): PolicyRule[] | undefined {
    const idx = this.current();
    if (ref.kind === 'ClusterRole') return idx.clusterRoles.get(ref.name);
    if (ref.kind === 'Role') return idx.roles.get(`${namespace}/${ref.name}`);
    return undefined;
  }

  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; incomplete: boolean } {
    const { rules, incomplete } = this.resolve(user, namespace);
    return { rules, incomplete };
  }

  private resolve(user: UserInfo, namespace: string): Resolved {
    const idx = this.current();
    let perUser = this.byUser.get(user);
    const mine = perUser?.get(namespace);
    if (mine) return mine;
    if (!perUser) this.byUser.set(user, (perUser = new Map()));
    const memoKey = `${namespace}\u0000${user.username}\u0000${user.groups.join('\u0001')}`;
    const known = this.memo.get(memoKey);
    if (known) {
      perUser.set(namespace, known);
      return known;
    }
    const rules: PolicyRule[] = [];
    let incomplete = false;
    const visit = (b: Binding) => {
      if (!b.subjects.some((s) => subjectMatches(s, user, b.namespace))) return;
      const granted = this.rulesOfRole(b.namespace, b.roleRef);
      if (granted) rules.push(...granted);
      else incomplete = true; // a binding to a missing role, as upstream reports it
    };
    idx.clusterRoleBindings.forEach(visit);
    if (namespace) (idx.roleBindings.get(namespace) ?? []).forEach(visit);
    const result: Resolved = { rules, incomplete, decisions: new Map() };
    if (this.memo.size > 10_000) {
      this.memo.clear();
      this.byUser = new WeakMap();
    }
    this.memo.set(memoKey, result);
    this.byUser.get(user)?.set(namespace, result);
    return result;
  }

  escalationError(user: UserInfo, namespace: string, rules: PolicyRule[]): string | undefined {
    const owned = this.rulesFor(user, namespace);
    const { covered, uncovered } = rulesCover(owned.rules, rules);
    if (covered) return undefined;
    const missing = [...new Set(compactRules(uncovered).map(compactRuleString))].sort().join('\n');
    const groups = user.groups.map((g) => JSON.stringify(g)).join(' ');
    let msg = `user ${JSON.stringify(user.username)} (groups=[${groups}]) is attempting to grant RBAC permissions not currently held:\n${missing}`;
    if (owned.incomplete) msg += '; resolution errors: [a binding refers to a role that does not exist]';
    return msg;
  }

  authorize(a: AuthzAttributes): AuthzDecision {
    if (a.user.groups.includes(superuserGroup)) return { allowed: true, reason: '' };
    const resolved = this.resolve(a.user, a.resourceRequest ? (a.namespace ?? '') : '');
    // The same user asks the same thing over and over: the answer stands until the next RBAC change (which drops the memo).
    const key = decisionKey(a);
    const known = key === undefined ? undefined : resolved.decisions.get(key);
    if (known) return known;
    let decision = denied;
    for (const r of resolved.rules) {
      if (ruleAllows(r, a)) {
        decision = allowed;
        break;
      }
    }
    if (key === undefined) return decision;
    if (resolved.decisions.size >= maxDecisions) resolved.decisions.clear();
    resolved.decisions.set(key, decision);
    return decision;
  }
}
