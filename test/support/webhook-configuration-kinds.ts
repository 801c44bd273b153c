/**
 * Test-only definitions of the two webhook configuration kinds, for tests
 * that run before (or without) the real admissionregistration kinds: same
 * group, version, plural and scope, no validation or defaults of their own
 * (the webhook plugins apply upstream's defaults where a field is absent).
 * `webhookConfigurationKinds` prefers the real kinds when a registry serves them.
 */
import type { ResourceDefinition } from '../../src/machinery/resource-definition';
import type { Schema } from '../../src/machinery/schema/schema';

const anything: Schema = {
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  properties: { metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
};

function kind(name: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration'): ResourceDefinition {
  const plural = `${name.toLowerCase()}s`;
  return {
    group: 'admissionregistration.svc.io',
    upstreamGroup: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: name,
    listKind: `${name}List`,
    plural,
    singular: name.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced: false,
    schema: anything,
    schemaName: `test.${name}`,
    strategy: { validate: () => [], validateUpdate: () => [] },
    subresources: {},
    fieldSelectors: {},
    usesGeneration: false,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    validateName: () => [],
  };
}

export const testMutatingWebhookConfigurationKind = kind('MutatingWebhookConfiguration');
export const testValidatingWebhookConfigurationKind = kind('ValidatingWebhookConfiguration');

/** The kinds a registry serves, else the test-only ones added to it. */
export function webhookConfigurationKinds(served: { all: readonly ResourceDefinition[]; add(def: ResourceDefinition): void }): {
  mutating: ResourceDefinition;
  validating: ResourceDefinition;
} {
  const find = (plural: string, fallback: ResourceDefinition) => {
    const real = served.all.find((d) => d.group === 'admissionregistration.svc.io' && d.plural === plural && d.version === 'v1');
    if (real) return real;
    served.add(fallback);
    return fallback;
  };
  return {
    mutating: find('mutatingwebhookconfigurations', testMutatingWebhookConfigurationKind),
    validating: find('validatingwebhookconfigurations', testValidatingWebhookConfigurationKind),
  };
}
