/** The served kinds. Routes, discovery and OpenAPI are generated from this list. */
import type { ResourceDefinition } from '../machinery/resource-definition';
import { configMapDefinition } from './config-map';
import { csiDriverDefinition } from './csi-driver';
import { csiStorageCapacityDefinition } from './csi-storage-capacity';
import { roleDefinition } from './role';
import { roleBindingDefinition } from './role-binding';
import { clusterRoleDefinition } from './cluster-role';
import { clusterRoleBindingDefinition } from './cluster-role-binding';
import { leaseDefinition } from './lease';
import { serviceAccountDefinition } from './service-account';
import { certificateSigningRequestDefinition } from './certificate-signing-request';
import { podCertificateRequestDefinition } from './pod-certificate-request';
import { clusterTrustBundleDefinition } from './cluster-trust-bundle';
import { podDisruptionBudgetDefinition } from './pod-disruption-budget';
import { workloadDefinition } from './workload';
import { namespaceDefinition } from './namespace';
import { coreEventDefinition, eventsEventDefinition } from './event';
import { customResourceDefinitionDefinition } from './custom-resource-definition';
import { validatingAdmissionPolicyDefinition } from './validating-admission-policy';
import { validatingAdmissionPolicyBindingDefinition } from './validating-admission-policy-binding';
import { validatingWebhookConfigurationDefinition } from './validating-webhook-configuration';
import { mutatingWebhookConfigurationDefinition } from './mutating-webhook-configuration';

export const allDefinitions: ResourceDefinition[] = [
  configMapDefinition,
  csiDriverDefinition,
  csiStorageCapacityDefinition,
  roleDefinition,
  roleBindingDefinition,
  clusterRoleDefinition,
  clusterRoleBindingDefinition,
  leaseDefinition,
  serviceAccountDefinition,
  certificateSigningRequestDefinition,
  podCertificateRequestDefinition,
  clusterTrustBundleDefinition,
  podDisruptionBudgetDefinition,
  workloadDefinition,
  namespaceDefinition,
  coreEventDefinition,
  eventsEventDefinition,
  customResourceDefinitionDefinition,
  validatingAdmissionPolicyDefinition,
  validatingAdmissionPolicyBindingDefinition,
  validatingWebhookConfigurationDefinition,
  mutatingWebhookConfigurationDefinition,
];
