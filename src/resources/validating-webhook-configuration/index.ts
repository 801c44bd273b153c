/**
 * ValidatingWebhookConfiguration: admissionregistration.svc.io/v1 (also
 * answered and discovered as admissionregistration.k8s.io, so stock manifests
 * apply unchanged), cluster-scoped. Calling the webhooks is admission's part.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { ValidatingWebhookConfiguration } from './validating-webhook-configuration.types';
import { webhookConfigurationStrategy } from './validating-webhook-configuration.strategy';
import { webhookConfigurationTable } from './validating-webhook-configuration.table';
import { validateValidatingWebhookConfiguration, validateValidatingWebhookConfigurationUpdate } from './validating-webhook-configuration.validation';

export const validatingWebhookConfigurationDefinition: ResourceDefinition = {
  group: 'admissionregistration.svc.io',
  upstreamGroup: 'admissionregistration.k8s.io',
  discoverUpstreamGroup: true,
  version: 'v1',
  kind: 'ValidatingWebhookConfiguration',
  listKind: 'ValidatingWebhookConfigurationList',
  plural: 'validatingwebhookconfigurations',
  singular: 'validatingwebhookconfiguration',
  shortNames: [],
  categories: ['api-extensions'],
  namespaced: false,
  schemaRoot: ValidatingWebhookConfiguration,
  strategy: webhookConfigurationStrategy(false, validateValidatingWebhookConfiguration, validateValidatingWebhookConfigurationUpdate),
  subresources: {},
  fieldSelectors: {},
  table: webhookConfigurationTable,
  usesGeneration: true,
  generationFields: ['webhooks'],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  validateName: nameIsDNSSubdomain,
};

export type { ServiceReferenceObject, WebhookConfigurationObject, WebhookObject } from './validating-webhook-configuration.validation';
export type { MatchConditionObject, RuleObject } from './admission-rules.validation';
