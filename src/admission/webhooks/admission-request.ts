/**
 * The AdmissionRequest a webhook is sent (and its match conditions read as
 * `request`), as upstream's CreateV1AdmissionReview builds it: kind and
 * resource as the webhook's rule matched them, requestKind and
 * requestResource as the request named them, the user, dryRun and the
 * request's options as upstream's typed options (a PATCH is shown as the
 * CreateOptions or UpdateOptions of the write it makes, as upstream does).
 * Fields Go leaves out when empty are left out.
 */
import type { KObject } from '../../machinery/object';
import type { UserInfo } from '../../machinery/user-info';
import type { AdmissionAttributes } from '../../registry/admission-chain';
import type { DeleteOptions } from '../../registry/request';
import type { ResourceName } from './resource-names';

/** What a request looks like to one webhook, before a uid and the objects are added. */
export interface RequestFacts {
  kind: ResourceName['kind'];
  resource: ResourceName['resource'];
  subResource?: string;
  requestKind: ResourceName['kind'];
  requestResource: ResourceName['resource'];
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: Record<string, unknown>;
  dryRun: boolean;
  options: Record<string, unknown> | null;
}

function userInfoJson(u: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (u.username) out.username = u.username;
  if (u.uid) out.uid = u.uid;
  if (u.groups?.length) out.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length) out.extra = u.extra;
  return out;
}

const metaV1 = 'meta.k8s.io/v1';

function optionsJson(a: AdmissionAttributes): Record<string, unknown> | null {
  const o = a.options;
  if (!o) return null;
  const dryRun = o.dryRun ? { dryRun: ['All'] } : {};
  if (a.operation === 'DELETE') {
    const d = o as DeleteOptions;
    return {
      kind: 'DeleteOptions',
      apiVersion: metaV1,
      ...(d.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: d.gracePeriodSeconds } : {}),
      ...(d.preconditions ? { preconditions: d.preconditions } : {}),
      ...(d.orphanDependents !== undefined ? { orphanDependents: d.orphanDependents } : {}),
      ...(d.propagationPolicy ? { propagationPolicy: d.propagationPolicy } : {}),
      ...dryRun,
    };
  }
  return {
    kind: a.operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions',
    apiVersion: metaV1,
    ...dryRun,
    ...(o.fieldManager ? { fieldManager: o.fieldManager } : {}),
    ...(o.fieldValidation ? { fieldValidation: o.fieldValidation } : {}),
  };
}

/**
 * The request's namespace as upstream's attributes carry it: a Namespace's own name for writes to an existing
 * namespace (its URL names it), '' when one is created.
 */
export function requestNamespace(a: AdmissionAttributes): string {
  if (a.definition.group === '' && a.definition.kind === 'Namespace') return a.operation === 'CREATE' ? '' : a.name;
  return a.namespace ?? '';
}

export function requestFacts(a: AdmissionAttributes, matched: ResourceName, own: ResourceName): RequestFacts {
  const sub = a.subresource ?? '';
  const ns = requestNamespace(a);
  return {
    kind: matched.kind,
    resource: matched.resource,
    ...(sub ? { subResource: sub } : {}),
    requestKind: own.kind,
    requestResource: own.resource,
    ...(sub ? { requestSubResource: sub } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(ns ? { namespace: ns } : {}),
    operation: a.operation,
    userInfo: userInfoJson(a.user),
    dryRun: a.dryRun,
    options: optionsJson(a),
  };
}

/** The AdmissionReview's `request`: uid first and the objects after userInfo, in Go's field order. */
export function reviewRequest(uid: string, facts: RequestFacts, object: KObject | undefined, oldObject: KObject | undefined): Record<string, unknown> {
  const { dryRun, options, ...head } = facts;
  return { uid, ...head, object: object ?? null, oldObject: oldObject ?? null, dryRun, options };
}
