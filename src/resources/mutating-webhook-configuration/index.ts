/**
 * MutatingWebhookConfiguration: admissionregistration.svc.io/v1 (also
 * answered and discovered as admissionregistration.k8s.io, so stock manifests
 * apply unchanged), cluster-scoped. Its webhooks are validated and defaulted
 * as validating ones are, plus reinvocationPolicy (shared code in
 * validating-webhook-configuration/). Calling the webhooks is admission's part.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { webhookConfigurationStrategy } from '../validating-webhook-configuration/validating-webhook-configuration.strategy';
import { webhookConfigurationTable } from '../validating-webhook-configuration/validating-webhook-configuration.table';
import { validateMutatingWebhookConfiguration, validateMutatingWebhookConfigurationUpdate } from '../validating-webhook-configuration/validating-webhook-configuration.validation';
import { MutatingWebhookConfiguration } from './mutating-webhook-configuration.types';

export const mutatingWebhookConfigurationDefinition: ResourceDefinition = {
  group: 'admissionregistration.svc.io',
  upstreamGroup: 'admissionregistration.k8s.io',
  discoverUpstreamGroup: true,
  version: 'v1',
  kind: 'MutatingWebhookConfiguration',
  listKind: 'MutatingWebhookConfigurationList',
  plural: 'mutatingwebhookconfigurations',
  singular: 'mutatingwebhookconfiguration',
  shortNames: [],
  categories: ['api-extensions'],
  namespaced: false,
  schemaRoot: MutatingWebhookConfiguration,
  strategy: webhookConfigurationStrategy(true, validateMutatingWebhookConfiguration, validateMutatingWebhookConfigurationUpdate),
  subresources: {},
  fieldSelectors: {},
  table: webhookConfigurationTable,
  usesGeneration: true,
  generationFields: ['webhooks'],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  validateName: nameIsDNSSubdomain,
};
