/** Lease: coordination.svc.io/v1, namespaced; PUT may create (leader election), but needs a resourceVersion. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { Lease } from './lease.types';
import { leaseStrategy } from './lease.strategy';
import { leaseTable } from './lease.table';

export const leaseDefinition: ResourceDefinition = {
  group: 'coordination.svc.io',
  version: 'v1',
  kind: 'Lease',
  listKind: 'LeaseList',
  plural: 'leases',
  singular: 'lease',
  shortNames: [],
  categories: [],
  namespaced: true,
  schemaRoot: Lease,
  strategy: leaseStrategy,
  subresources: {},
  fieldSelectors: {},
  table: leaseTable,
  usesGeneration: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  validateName: nameIsDNSSubdomain,
};
