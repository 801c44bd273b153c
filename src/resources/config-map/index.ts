/** ConfigMap: core v1, namespaced. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { ConfigMap } from './config-map.types';
import { validateConfigMap, validateConfigMapUpdate } from './config-map.validation';
import { configMapTable } from './config-map.table';

export const configMapDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  plural: 'configmaps',
  singular: 'configmap',
  shortNames: ['cm'],
  categories: [],
  namespaced: true,
  schemaRoot: ConfigMap,
  strategy: { validate: validateConfigMap, validateUpdate: validateConfigMapUpdate },
  subresources: {},
  fieldSelectors: {},
  table: configMapTable,
  usesGeneration: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  validateName: nameIsDNSSubdomain,
};
