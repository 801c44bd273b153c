/** PodDisruptionBudget: policy/v1, namespaced, with a /status subresource. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { prepareForCreate, prepareForStatusUpdate } from './pdb.strategy';
import { pdbTable } from './pdb.table';
import { PodDisruptionBudget } from './pdb.types';
import { validatePdb, validatePdbStatusUpdate, validatePdbUpdate } from './pdb.validation';

export const podDisruptionBudgetDefinition: ResourceDefinition = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  listKind: 'PodDisruptionBudgetList',
  plural: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  shortNames: ['pdb'],
  categories: [],
  namespaced: true,
  schemaRoot: PodDisruptionBudget,
  strategy: { prepareForCreate, validate: validatePdb, validateUpdate: validatePdbUpdate },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], prepareForUpdate: prepareForStatusUpdate, validateUpdate: validatePdbStatusUpdate },
  },
  fieldSelectors: {},
  table: pdbTable,
  usesGeneration: true,
  generationFields: ['spec'],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  // Upstream runs no DNS rule on PDB names, only the generic path-segment check.
  validateName: validatePathSegmentName,
};
