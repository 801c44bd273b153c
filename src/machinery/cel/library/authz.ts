/**
 * Kubernetes' authz library (library/authz.go) for admission expressions:
 * `authorizer.group('apps').resource('deployments').namespace('ns').check('create').allowed()`,
 * `authorizer.path('/healthz').check('get')`, `authorizer.serviceAccount(ns, name)`,
 * and the request's own resource as `authorizer.requestResource`. Checks ask
 * an authorize function the evaluation is given (the AuthorizerPort's), as
 * the request's user. A check costs 350000, as upstream prices it (two per
 * expression); builders and accessors cost 1. Only admission environments
 * declare it (admissionLibraries); the runtime serves it to all.
 */
import { celMethod, CelScalar, type CelValue } from '@bufbuild/cel';
import type { AuthzAttributes, AuthzDecision } from '../../../ports/authorizer.port';
import type { UserInfo } from '../../user-info';
import { range, type CallEstimator } from '../cost/estimate-types';
import { chargeRuntime } from '../cost/runtime';
import { method } from '../declarations';
import type { Library } from '../library';
import { opaqueKind } from '../opaque';
import { T } from '../types';

export type AuthorizeFn = (attributes: AuthzAttributes) => AuthzDecision;

interface Asker {
  readonly user: UserInfo;
  readonly authorize: AuthorizeFn;
}

export interface ResourceCheckFields {
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

type ResourceCheck = Asker & Required<ResourceCheckFields>;

const AUTHORIZER = opaqueKind<Asker>('kubernetes.authorization.Authorizer');
const PATH_CHECK = opaqueKind<Asker & { path: string }>('kubernetes.authorization.PathCheck');
const GROUP_CHECK = opaqueKind<Asker & { group: string }>('kubernetes.authorization.GroupCheck');
const RESOURCE_CHECK = opaqueKind<ResourceCheck>('kubernetes.authorization.ResourceCheck');
const DECISION = opaqueKind<AuthzDecision>('kubernetes.authorization.Decision');

export const AUTHORIZER_TYPE = AUTHORIZER.type;
export const RESOURCE_CHECK_TYPE = RESOURCE_CHECK.type;

/** Upstream's check cost (library/cost.go): an authorization check is expensive, builders are not. */
const CHECK_COST = 350_000;

// Values of these types are never compared; each gets its own identity.
let serial = 0;
const key = () => String(++serial);

/** The `authorizer` variable: checks as `user`. */
export function authorizerValue(user: UserInfo, authorize: AuthorizeFn): CelValue {
  return AUTHORIZER.wrap({ user, authorize }, key()) as unknown as CelValue;
}

/** The `authorizer.requestResource` variable: a resource check of the request's resource. */
export function resourceCheckValue(user: UserInfo, authorize: AuthorizeFn, r: ResourceCheckFields): CelValue {
  const fields = { group: r.group, resource: r.resource, subresource: r.subresource ?? '', namespace: r.namespace ?? '', name: r.name ?? '' };
  return RESOURCE_CHECK.wrap({ user, authorize, ...fields }, key()) as unknown as CelValue;
}

const { STRING, BOOL } = CelScalar;
const A = AUTHORIZER.runtime;
const P = PATH_CHECK.runtime;
const G = GROUP_CHECK.runtime;
const R = RESOURCE_CHECK.runtime;
const D = DECISION.runtime;
const self = <P>(kind: { unwrap(v: CelValue): P }, v: unknown) => kind.unwrap(v as CelValue);

function decide(asker: Asker, attributes: Omit<AuthzAttributes, 'user'>): never {
  chargeRuntime(CHECK_COST - 1); // the call itself is charged 1 with the expression
  return DECISION.wrap(asker.authorize({ ...attributes, user: asker.user }), key()) as never;
}

/** A copy of the receiving resource check with one field set. */
const setter = (field: 'subresource' | 'namespace' | 'name') =>
  celMethod(field, R, [STRING], R, function (value: string) {
    return RESOURCE_CHECK.wrap({ ...self(RESOURCE_CHECK, this), [field]: value }, key()) as never;
  });

const nominal: CallEstimator = () => ({ cost: range.fixed(1) });

export const authzLibrary: Library = {
  name: 'authz',
  declarations: [
    method('path', 'authorizer_path', [AUTHORIZER.type, T.string], PATH_CHECK.type),
    method('group', 'authorizer_group', [AUTHORIZER.type, T.string], GROUP_CHECK.type),
    method('serviceAccount', 'authorizer_serviceaccount', [AUTHORIZER.type, T.string, T.string], AUTHORIZER.type),
    method('resource', 'groupcheck_resource', [GROUP_CHECK.type, T.string], RESOURCE_CHECK.type),
    method('subresource', 'resourcecheck_subresource', [RESOURCE_CHECK.type, T.string], RESOURCE_CHECK.type),
    method('namespace', 'resourcecheck_namespace', [RESOURCE_CHECK.type, T.string], RESOURCE_CHECK.type),
    method('name', 'resourcecheck_name', [RESOURCE_CHECK.type, T.string], RESOURCE_CHECK.type),
    method('check', 'pathcheck_check', [PATH_CHECK.type, T.string], DECISION.type),
    method('check', 'resourcecheck_check', [RESOURCE_CHECK.type, T.string], DECISION.type),
    method('errored', 'decision_errored', [DECISION.type], T.bool),
    method('error', 'decision_error', [DECISION.type], T.string),
    method('allowed', 'decision_allowed', [DECISION.type], T.bool),
    method('reason', 'decision_reason', [DECISION.type], T.string),
  ],
  functions: [
    celMethod('path', A, [STRING], P, function (path: string) {
      return PATH_CHECK.wrap({ ...self(AUTHORIZER, this), path }, key()) as never;
    }),
    celMethod('group', A, [STRING], G, function (group: string) {
      return GROUP_CHECK.wrap({ ...self(AUTHORIZER, this), group }, key()) as never;
    }),
    celMethod('serviceAccount', A, [STRING, STRING], A, function (namespace: string, name: string) {
      // serviceaccount.UserInfo(namespace, name, ""): the account's user and its two groups.
      const user = { username: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] };
      return AUTHORIZER.wrap({ user, authorize: self(AUTHORIZER, this).authorize }, key()) as never;
    }),
    celMethod('resource', G, [STRING], R, function (resource: string) {
      const g = self(GROUP_CHECK, this);
      return RESOURCE_CHECK.wrap({ user: g.user, authorize: g.authorize, group: g.group, resource, subresource: '', namespace: '', name: '' }, key()) as never;
    }),
    setter('subresource'),
    setter('namespace'),
    setter('name'),
    celMethod('check', P, [STRING], D, function (verb: string) {
      const p = self(PATH_CHECK, this);
      return decide(p, { verb: verb.toLowerCase(), resourceRequest: false, path: p.path });
    }),
    celMethod('check', R, [STRING], D, function (verb: string) {
      const r = self(RESOURCE_CHECK, this);
      return decide(r, { verb, resourceRequest: true, apiGroup: r.group, apiVersion: '*', resource: r.resource, subresource: r.subresource, namespace: r.namespace, name: r.name });
    }),
    // The authorizer port answers or throws; it has no third, errored outcome.
    celMethod('errored', D, [], BOOL, () => false),
    celMethod('error', D, [], STRING, () => ''),
    celMethod('allowed', D, [], BOOL, function () {
      return self(DECISION, this).allowed;
    }),
    celMethod('reason', D, [], STRING, function () {
      return self(DECISION, this).reason;
    }),
  ],
  estimators: {
    check: () => ({ cost: range.fixed(CHECK_COST) }),
    ...Object.fromEntries(['path', 'group', 'serviceAccount', 'resource', 'subresource', 'namespace', 'name', 'errored', 'error', 'allowed', 'reason'].map((n) => [n, nominal])),
  },
};
