/**
 * API approval of CRDs in protected groups (upstream's validateAPIApproval):
 * a group under k8s.io or kubernetes.io — and svc.io, this project's name for
 * k8s.io — needs the `api-approved.kubernetes.io` annotation with a URL, or a
 * reason starting with "unapproved". An update that leaves the approval state
 * as it was is never refused.
 */
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';
import type { CRDObject } from './crd-internal';

export const API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';
const protectedDomains = ['k8s.io', 'kubernetes.io', 'svc.io'];

export function isProtectedGroup(group: string): boolean {
  return protectedDomains.some((d) => group === d || group.endsWith(`.${d}`));
}

type State = 'invalid' | 'approved' | 'bypassed' | 'missing';

/** An approval URL: what url.ParseRequestURI reads with a scheme and a host. */
const isApprovalURL = (s: string) => /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\s]+/.test(s) && !/[\u0000-\u001f\u007f]/.test(s);

function approvalState(annotations: Record<string, string> | undefined): { state: State; reason: string } {
  const value = annotations?.[API_APPROVED_ANNOTATION] ?? '';
  if (value === '') {
    return { state: 'missing', reason: `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111` };
  }
  if (value.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: ${JSON.stringify(value)}` };
  if (isApprovalURL(value)) return { state: 'approved', reason: `approved in ${value}` };
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

export function approvalErrors(crd: CRDObject, old?: CRDObject): FieldError[] {
  if (!isProtectedGroup(crd.spec?.group ?? '')) return [];
  const now = approvalState(crd.metadata.annotations);
  if (old && approvalState(old.metadata.annotations).state === now.state) return [];
  const path = FieldPath.root('metadata').child('annotations').key(API_APPROVED_ANNOTATION);
  if (now.state === 'missing') return [fieldErrors.required(path, now.reason)];
  if (now.state === 'invalid') return [fieldErrors.invalid(path, crd.metadata.annotations?.[API_APPROVED_ANNOTATION] ?? '', now.reason)];
  return [];
}
