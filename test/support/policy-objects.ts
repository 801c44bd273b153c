/**
 * ValidatingAdmissionPolicy and binding objects as a client sends them, for the admission
 * plugin's tests (the kinds themselves are src/resources/validating-admission-policy*).
 */
import type { KObject } from '../../src/machinery/object';

/** A policy object as a client would send it. */
export function policy(name: string, spec: Record<string, unknown>): KObject {
  return { apiVersion: 'admissionregistration.svc.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec } as KObject;
}

export function binding(name: string, spec: Record<string, unknown>): KObject {
  return { apiVersion: 'admissionregistration.svc.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec } as KObject;
}

/** matchConstraints for configmaps on the given operations. */
export const configMapRules = (operations: string[] = ['CREATE', 'UPDATE']) => ({
  resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations }],
});
