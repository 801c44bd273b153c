/** ClusterTrustBundle: certificates.svc.io/v1, cluster-scoped, no status. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { ClusterTrustBundle } from './cluster-trust-bundle.types';
import { validateCtbCreate, validateCtbUpdate } from './cluster-trust-bundle.validation';
import { ctbTable } from './cluster-trust-bundle.table';
import { admitCtb } from './cluster-trust-bundle.admission';

export const clusterTrustBundleDefinition: ResourceDefinition = {
  group: 'certificates.svc.io',
  version: 'v1',
  kind: 'ClusterTrustBundle',
  listKind: 'ClusterTrustBundleList',
  plural: 'clustertrustbundles',
  singular: 'clustertrustbundle',
  shortNames: [],
  categories: [],
  namespaced: false,
  schemaRoot: ClusterTrustBundle,
  strategy: { validate: validateCtbCreate, validateUpdate: validateCtbUpdate },
  subresources: {},
  fieldSelectors: { 'spec.signerName': (obj) => (obj.spec as { signerName?: string } | undefined)?.signerName ?? '' },
  table: ctbTable,
  admit: admitCtb,
  usesGeneration: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  // The real name rule depends on spec.signerName, so the strategy checks it; this is the generic part.
  validateName: validatePathSegmentName,
};
