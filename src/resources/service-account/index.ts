/** ServiceAccount: core v1, namespaced; DELETE answers with the deleted object. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { ServiceAccount } from './service-account.types';
import { serviceAccountStrategy } from './service-account.strategy';
import { serviceAccountTable } from './service-account.table';

export const serviceAccountDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  categories: [],
  namespaced: true,
  schemaRoot: ServiceAccount,
  strategy: serviceAccountStrategy,
  subresources: {},
  fieldSelectors: {},
  table: serviceAccountTable,
  usesGeneration: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  returnDeletedObject: true,
  validateName: nameIsDNSSubdomain,
};
