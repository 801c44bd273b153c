/**
 * The access-review APIs (authorization/v1 SelfSubjectAccessReview,
 * SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectRulesReview and
 * authentication/v1 SelfSubjectReview): pure functions from the request
 * body and the requester to the answered object.
 */
import { FieldError, fieldErrors } from '../machinery/field-errors';
import { isPlainObject, KObject } from '../machinery/object';
import { errors } from '../machinery/status';
import type { UserInfo } from '../machinery/resource-definition';
import type { AuthorizerPort, AuthzAttributes, PolicyRule } from '../ports/authorizer.port';

export type ReviewKind = 'SelfSubjectAccessReview' | 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectRulesReview' | 'SelfSubjectReview';

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

interface AccessSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
  namespace?: string;
}

export interface ReviewRequest {
  kind: ReviewKind;
  /** The group the client used (authorization.k8s.io or authorization.svc.io ...), echoed in the answer. */
  group: string;
  body: KObject;
  /** URL namespace (LocalSubjectAccessReview). */
  namespace?: string;
  requester: UserInfo;
}

function attributesOf(spec: AccessSpec, user: UserInfo): AuthzAttributes {
  if (spec.resourceAttributes) {
    const r = spec.resourceAttributes;
    return {
      user,
      verb: r.verb ?? '',
      resourceRequest: true,
      apiGroup: r.group ?? '',
      apiVersion: r.version,
      resource: r.resource ?? '',
      subresource: r.subresource || undefined,
      namespace: r.namespace || undefined,
      name: r.name || undefined,
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', resourceRequest: false, path: n.path ?? '' };
}

function validateAccessSpec(spec: AccessSpec, needsSubject: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(fieldErrors.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(fieldErrors.invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (needsSubject && !spec.user && !(spec.groups?.length)) errs.push(fieldErrors.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  return errs;
}

/** Rules in SubjectRulesReviewStatus form: resource rules and non-resource rules apart. */
function rulesStatus(rules: PolicyRule[], incomplete: boolean) {
  const resourceRules: Record<string, string[]>[] = [];
  const nonResourceRules: Record<string, string[]>[] = [];
  for (const r of rules) {
    if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
    if (r.resources?.length) {
      const rule: Record<string, string[]> = { verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources };
      if (r.resourceNames?.length) rule.resourceNames = r.resourceNames;
      resourceRules.push(rule);
    }
  }
  return { resourceRules, nonResourceRules, incomplete };
}

function decision(authz: AuthorizerPort, a: AuthzAttributes) {
  const d = authz.authorize(a);
  return d.allowed ? { allowed: true, ...(d.reason ? { reason: d.reason } : {}) } : { allowed: false, ...(d.reason ? { reason: d.reason } : {}) };
}

export function answerReview(req: ReviewRequest, authz: AuthorizerPort): KObject {
  const { kind, body, requester } = req;
  const spec = (isPlainObject(body.spec) ? body.spec : {}) as AccessSpec;
  const invalid = (errs: FieldError[]) => errors.invalid({ group: req.group, kind }, body.metadata?.name ?? '', errs);
  let status: Record<string, unknown>;
  switch (kind) {
    case 'SelfSubjectAccessReview': {
      const errs = validateAccessSpec(spec, false);
      if (errs.length) throw invalid(errs);
      status = decision(authz, attributesOf(spec, requester));
      break;
    }
    case 'SubjectAccessReview':
    case 'LocalSubjectAccessReview': {
      const errs = validateAccessSpec(spec, true);
      if (errs.length) throw invalid(errs);
      if (kind === 'LocalSubjectAccessReview') {
        const ns = req.namespace ?? '';
        if (body.metadata.namespace && body.metadata.namespace !== ns) throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
        if (spec.nonResourceAttributes) throw invalid([fieldErrors.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'disallowed on this kind of request')]);
        if ((spec.resourceAttributes?.namespace ?? '') !== ns) throw errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${ns}`);
        body.metadata.namespace = ns;
      }
      const subject: UserInfo = { username: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
      status = decision(authz, attributesOf(spec, subject));
      break;
    }
    case 'SelfSubjectRulesReview': {
      const ns = spec.namespace ?? '';
      if (!ns) throw errors.badRequest('no namespace on request');
      const { rules, incomplete } = authz.rulesFor(requester, ns);
      status = rulesStatus(rules, incomplete);
      break;
    }
    case 'SelfSubjectReview': {
      const u = requester;
      status = { userInfo: { username: u.username, ...(u.uid ? { uid: u.uid } : {}), groups: u.groups, ...(u.extra ? { extra: u.extra } : {}) } };
      break;
    }
  }
  const metadata = { ...body.metadata };
  delete metadata.managedFields;
  return { kind, apiVersion: body.apiVersion, metadata, ...(kind === 'SelfSubjectReview' ? {} : { spec: body.spec ?? {} }), status } as KObject;
}
