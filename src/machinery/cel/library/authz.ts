/**
 * Kubernetes' authz library (library/authz.go): `authorizer.group('apps').resource('deployments')
 * .namespace('ns').name('x').check('update').allowed()`, `authorizer.path('/healthz').check('get')`,
 * `authorizer.serviceAccount(ns, name)` and the `authorizer.requestResource` check the admission
 * plugin declares. Checks ask the server's AuthorizerPort; one costs 350000, as upstream's.
 */
import { celMethod, CelScalar, type CelValue } from '@bufbuild/cel';
import type { AuthorizerPort, AuthzAttributes } from '../../../ports/authorizer.port';
import type { UserInfo } from '../../user-info';
import { range } from '../cost/estimate-types';
import { chargeRuntime } from '../cost/runtime';
import { method } from '../declarations';
import type { Library } from '../library';
import { opaqueKind } from '../opaque';
import { T } from '../types';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names';

interface Principal {
  readonly user: UserInfo;
  readonly port: AuthorizerPort;
}
interface PathCheck {
  readonly principal: Principal;
  readonly path: string;
}
interface GroupCheck {
  readonly principal: Principal;
  readonly group: string;
}
export interface ResourceCheck {
  readonly principal: Principal;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}
interface Decision {
  readonly allowed: boolean;
  readonly reason: string;
}

const AUTHORIZER = opaqueKind<Principal>('kubernetes.authorization.Authorizer');
const PATH_CHECK = opaqueKind<PathCheck>('kubernetes.authorization.PathCheck');
const GROUP_CHECK = opaqueKind<GroupCheck>('kubernetes.authorization.GroupCheck');
const RESOURCE_CHECK = opaqueKind<ResourceCheck>('kubernetes.authorization.ResourceCheck');
const DECISION = opaqueKind<Decision>('kubernetes.authorization.Decision');

/** Upstream's cost of one check: it allows two checks per expression under the per-call limit. */
export const AUTHZ_CHECK_COST = 350_000;

export const AUTHORIZER_TYPE = AUTHORIZER.type;
export const RESOURCE_CHECK_TYPE = RESOURCE_CHECK.type;

// Values differ by what they check, not by identity: the key carries no meaning beyond the type (upstream compares types only).
export const authorizerValue = (user: UserInfo, port: AuthorizerPort): CelValue => AUTHORIZER.wrap({ user, port }, 'authorizer') as unknown as CelValue;

export function resourceCheckValue(user: UserInfo, port: AuthorizerPort, r: Omit<ResourceCheck, 'principal'>): CelValue {
  return RESOURCE_CHECK.wrap({ principal: { user, port }, ...r }, 'resourceCheck') as unknown as CelValue;
}

const { STRING, BOOL } = CelScalar;
const un = <P>(kind: { unwrap(v: CelValue): P }, v: unknown) => kind.unwrap(v as CelValue);
const resourceSetter = (name: 'subresource' | 'namespace' | 'name') =>
  celMethod(name, RESOURCE_CHECK.runtime, [STRING], RESOURCE_CHECK.runtime, function (value: string) {
    const r = un(RESOURCE_CHECK, this);
    return RESOURCE_CHECK.wrap({ ...r, [name]: value }, 'resourceCheck') as never;
  });

function decide(principal: Principal, attrs: Omit<AuthzAttributes, 'user'>) {
  chargeRuntime(AUTHZ_CHECK_COST - 1); // the call node itself is charged 1 already
  const d = principal.port.authorize({ ...attrs, user: principal.user });
  return DECISION.wrap({ allowed: d.allowed, reason: d.reason }, 'decision') as never;
}

function serviceAccount(namespace: string, name: string): UserInfo {
  if (isDNS1123Subdomain(name).length) throw new Error('Invalid service account name');
  if (isDNS1123Label(namespace).length) throw new Error('Invalid service account namespace');
  return { username: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] };
}

const A = AUTHORIZER.type;
const P = PATH_CHECK.type;
const G = GROUP_CHECK.type;
const R = RESOURCE_CHECK.type;
const D = DECISION.type;
const nominal = () => ({ cost: range.fixed(1) });

export const authzLibrary: Library = {
  name: 'authz',
  declarations: [
    method('path', 'authorizer_path', [A, T.string], P),
    method('group', 'authorizer_group', [A, T.string], G),
    method('serviceAccount', 'authorizer_serviceaccount', [A, T.string, T.string], A),
    method('resource', 'groupcheck_resource', [G, T.string], R),
    method('subresource', 'resourcecheck_subresource', [R, T.string], R),
    method('namespace', 'resourcecheck_namespace', [R, T.string], R),
    method('name', 'resourcecheck_name', [R, T.string], R),
    method('check', 'pathcheck_check', [P, T.string], D),
    method('check', 'resourcecheck_check', [R, T.string], D),
    method('errored', 'decision_errored', [D], T.bool),
    method('error', 'decision_error', [D], T.string),
    method('allowed', 'decision_allowed', [D], T.bool),
    method('reason', 'decision_reason', [D], T.string),
  ],
  functions: [
    celMethod('path', AUTHORIZER.runtime, [STRING], PATH_CHECK.runtime, function (path: string) {
      if (path.trim() === '') throw new Error('path must not be empty');
      return PATH_CHECK.wrap({ principal: un(AUTHORIZER, this), path }, 'pathCheck') as never;
    }),
    celMethod('group', AUTHORIZER.runtime, [STRING], GROUP_CHECK.runtime, function (group: string) {
      return GROUP_CHECK.wrap({ principal: un(AUTHORIZER, this), group }, 'groupCheck') as never;
    }),
    celMethod('serviceAccount', AUTHORIZER.runtime, [STRING, STRING], AUTHORIZER.runtime, function (namespace: string, name: string) {
      return AUTHORIZER.wrap({ user: serviceAccount(namespace, name), port: un(AUTHORIZER, this).port }, 'authorizer') as never;
    }),
    celMethod('resource', GROUP_CHECK.runtime, [STRING], RESOURCE_CHECK.runtime, function (resource: string) {
      if (resource.trim() === '') throw new Error('resource must not be empty');
      const g = un(GROUP_CHECK, this);
      return RESOURCE_CHECK.wrap({ principal: g.principal, group: g.group, resource, subresource: '', namespace: '', name: '' }, 'resourceCheck') as never;
    }),
    resourceSetter('subresource'),
    resourceSetter('namespace'),
    resourceSetter('name'),
    celMethod('check', PATH_CHECK.runtime, [STRING], DECISION.runtime, function (verb: string) {
      const p = un(PATH_CHECK, this);
      return decide(p.principal, { verb, resourceRequest: false, path: p.path });
    }),
    celMethod('check', RESOURCE_CHECK.runtime, [STRING], DECISION.runtime, function (verb: string) {
      const r = un(RESOURCE_CHECK, this);
      return decide(r.principal, {
        verb,
        resourceRequest: true,
        apiGroup: r.group,
        apiVersion: '*',
        resource: r.resource,
        subresource: r.subresource || undefined,
        namespace: r.namespace || undefined,
        name: r.name || undefined,
      });
    }),
    // The AuthorizerPort answers without errors.
    celMethod('errored', DECISION.runtime, [], BOOL, () => false),
    celMethod('error', DECISION.runtime, [], STRING, () => ''),
    celMethod('allowed', DECISION.runtime, [], BOOL, function () {
      return un(DECISION, this).allowed;
    }),
    celMethod('reason', DECISION.runtime, [], STRING, function () {
      return un(DECISION, this).reason;
    }),
  ],
  estimators: {
    check: () => ({ cost: range.fixed(AUTHZ_CHECK_COST) }),
    ...Object.fromEntries(['serviceAccount', 'path', 'group', 'resource', 'subresource', 'namespace', 'name', 'allowed', 'reason', 'error', 'errored'].map((n) => [n, nominal])),
  },
};
