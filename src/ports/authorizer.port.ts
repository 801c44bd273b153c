/**
 * Authorization as the domain sees it: strategies and admission checks ask
 * whether a user may perform a verb (e.g. `approve` on a signer) without
 * knowing which authorizer (RBAC, AlwaysAllow) answers.
 */
import type { UserInfo } from '../machinery/user-info';

/** Upstream's authorizer.Attributes: a resource request or a non-resource path. */
export interface AuthzAttributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  apiGroup?: string;
  apiVersion?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Non-resource requests only. */
  path?: string;
}

export interface AuthzDecision {
  allowed: boolean;
  /** Why it was denied (or allowed); empty when the authorizer has no opinion. */
  reason: string;
}

/** An RBAC-style rule (rbac/v1 PolicyRule). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface RoleRefLike {
  apiGroup?: string;
  kind: string;
  name: string;
}

export interface AuthorizerPort {
  authorize(attrs: AuthzAttributes): AuthzDecision;
  /** The rules a user holds in a namespace ('' = cluster-wide only), for escalation checks and rules reviews. */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; incomplete: boolean };
  /** The rules a roleRef grants (undefined when the role does not exist). */
  rulesOfRole(namespace: string, ref: RoleRefLike): PolicyRule[] | undefined;
  /**
   * Upstream's ConfirmNoEscalation: undefined when the user already holds
   * every permission in `rules` (in `namespace`), else the message naming
   * what it lacks.
   */
  escalationError(user: UserInfo, namespace: string, rules: PolicyRule[]): string | undefined;
}

/** AlwaysAllow: every request is allowed; users hold every permission. */
export const alwaysAllow: AuthorizerPort = {
  authorize: () => ({ allowed: true, reason: '' }),
  rulesFor: () => ({ rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false }),
  rulesOfRole: () => [],
  escalationError: () => undefined,
};
