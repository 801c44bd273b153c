/** Field ownership for server-side apply and managedFields (structured-merge-diff semantics). */
export { FieldSet } from './field-set';
export { setToFieldsV1, fieldsV1ToSet, type FieldsV1 } from './fields-v1';
export { type Path, type PathElement, field, keyElement, pathString, serializeElement, parseElement } from './path';
export { createdFieldsV1 } from './created';
export { toFieldSet, ensureNamedFieldsAreMembers } from './to-field-set';
export { compare, type Comparison } from './compare';
export { merge, removeItems } from './merge';
export { validateConfig, validationMessage } from './validate';
export { applyOwnership, updateOwnership, ConflictError, type Conflict, type ManagedSets, type UpdaterContext } from './updater';
export {
  capUpdateManagers,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentifier,
  stripUntracked,
  trackedView,
  type Managed,
} from './entries';
export { conflictCauses, conflictMessage, describeManager } from './conflicts';
export { goJson } from './go-values';
