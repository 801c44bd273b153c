/** Namespace: core v1, cluster-scoped, with /status and /finalize. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSLabel } from '../../machinery/validation/names';
import { Namespace } from './namespace.types';
import { namespaceFinalizeStrategy, namespaceStatusStrategy, namespaceStrategy } from './namespace.strategy';
import { namespaceTable } from './namespace.table';
import type { NamespaceObject } from './namespace.validation';

export { FINALIZER_KUBERNETES, PHASE_ACTIVE, PHASE_TERMINATING, finalizersOf, type NamespaceObject } from './namespace.validation';
export { LABEL_METADATA_NAME } from './namespace.strategy';

/**
 * Present from the first start and never deletable (upstream protects the
 * first three; kube-node-lease too here).
 */
export const SYSTEM_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export const namespaceDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  plural: 'namespaces',
  singular: 'namespace',
  shortNames: ['ns'],
  categories: [],
  namespaced: false,
  schemaRoot: Namespace,
  strategy: namespaceStrategy,
  subresources: { status: namespaceStatusStrategy, finalize: namespaceFinalizeStrategy },
  fieldSelectors: { 'status.phase': (obj) => (obj as NamespaceObject).status?.phase ?? '' },
  unknownFieldSelectorMessage: (field) => `field label not supported: ${field}`,
  table: namespaceTable,
  usesGeneration: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  returnDeletedObject: true,
  deleteCollection: false,
  validateName: nameIsDNSLabel,
};
