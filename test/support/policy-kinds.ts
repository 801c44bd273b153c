/**
 * Test-only ResourceDefinitions for ValidatingAdmissionPolicy and its binding: the
 * admissionregistration.svc.io/v1 names and scope with no schema check or validation, so
 * that the admission plugin's tests can store policies and bindings before the real kinds
 * (another branch) are served. Objects are kept as given.
 */
import type { KObject } from '../../src/machinery/object';
import type { ResourceDefinition } from '../../src/machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../src/machinery/validation/names';

function testKind(kind: string, plural: string): ResourceDefinition {
  return {
    group: 'admissionregistration.svc.io',
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced: false,
    schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    decodeBody: () => ({ unknownFields: [] }),
    strategy: { validate: () => [], validateUpdate: () => [] },
    subresources: {},
    fieldSelectors: {},
    usesGeneration: true,
    generationFields: ['spec'],
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    validateName: nameIsDNSSubdomain,
    strategicMergePatch: false,
  };
}

export const testPolicyDefinition = testKind('ValidatingAdmissionPolicy', 'validatingadmissionpolicies');
export const testBindingDefinition = testKind('ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings');

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
