/**
 * Namespace rules, as upstream's ValidateNamespace, ValidateNamespaceStatusUpdate
 * and ValidateNamespaceFinalizeUpdate (the name rule, a DNS label, is the
 * definition's; ObjectMeta is the registry's).
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import type { KObject } from '../../machinery/object';
import { isQualifiedName } from '../../machinery/validation/names';

export const FINALIZER_KUBERNETES = 'kubernetes';
export const PHASE_ACTIVE = 'Active';
export const PHASE_TERMINATING = 'Terminating';
const standardFinalizers = new Set([FINALIZER_KUBERNETES, 'orphan', 'foregroundDeletion']);

export interface NamespaceObject extends KObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: Array<Record<string, unknown>> };
}

export function finalizersOf(obj: KObject): string[] {
  return (obj as NamespaceObject).spec?.finalizers ?? [];
}

/** A finalizer is a qualified name, and an unprefixed one must be a standard one. */
function validateFinalizerName(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    errs.push(fieldErrors.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

/** Create and update: upstream names the list, not the item, here. */
export function validateNamespace(obj: KObject): FieldError[] {
  const path = FieldPath.root('spec').child('finalizers');
  return finalizersOf(obj).flatMap((f) => validateFinalizerName(f, path));
}

export function validateNamespaceStatusUpdate(obj: KObject): FieldError[] {
  const phase = (obj as NamespaceObject).status?.phase ?? '';
  const path = FieldPath.root('status').child('Phase');
  if (!obj.metadata.deletionTimestamp) {
    return phase === PHASE_ACTIVE ? [] : [fieldErrors.invalid(path, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === PHASE_TERMINATING ? [] : [fieldErrors.invalid(path, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

export function validateNamespaceFinalizeUpdate(obj: KObject): FieldError[] {
  const path = FieldPath.root('spec').child('finalizers');
  return finalizersOf(obj).flatMap((f, i) => validateFinalizerName(f, path.index(i)));
}
