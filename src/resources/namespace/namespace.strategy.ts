/**
 * Namespace strategy, as upstream's: a new namespace is Active and carries
 * the `kubernetes` finalizer; spec.finalizers change only through
 * /finalize and status only through /status; the
 * `kubernetes.io/metadata.name` label always equals the name. Deletion is
 * the kind's own: the first DELETE sets Terminating, and the namespace stays
 * while spec.finalizers is not empty (the namespace controller empties it
 * once the content is gone).
 */
import type { KObject } from '../../machinery/object';
import type { DeletionRules, Strategy, SubresourceStrategy } from '../../machinery/resource-definition';
import {
  FINALIZER_KUBERNETES,
  NamespaceObject,
  PHASE_ACTIVE,
  PHASE_TERMINATING,
  finalizersOf,
  validateNamespace,
  validateNamespaceFinalizeUpdate,
  validateNamespaceStatusUpdate,
} from './namespace.validation';

export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';

function labelWithName(obj: KObject): void {
  // With only generateName the name is not known yet; canonicalize sets the label later.
  if (!obj.metadata.name) return;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [LABEL_METADATA_NAME]: obj.metadata.name };
}

const deletion: DeletionRules = {
  holds: (obj) => finalizersOf(obj).length > 0,
  markFirst: true,
  onMark(obj) {
    const ns = obj as NamespaceObject;
    ns.status = { ...(ns.status ?? {}), phase: PHASE_TERMINATING };
  },
};

export const namespaceStrategy: Strategy = {
  prepareForCreate(obj) {
    const ns = obj as NamespaceObject;
    ns.status = { phase: PHASE_ACTIVE };
    const finalizers = finalizersOf(ns);
    if (!finalizers.includes(FINALIZER_KUBERNETES)) ns.spec = { ...(ns.spec ?? {}), finalizers: [...finalizers, FINALIZER_KUBERNETES] };
  },
  prepareForUpdate(obj, old) {
    const ns = obj as NamespaceObject;
    const previous = finalizersOf(old);
    ns.spec = { ...(ns.spec ?? {}) };
    if (previous.length) ns.spec.finalizers = [...previous];
    else delete ns.spec.finalizers;
  },
  applyDefaults: labelWithName,
  validate: validateNamespace,
  validateUpdate: validateNamespace,
  canonicalize: labelWithName,
  deletion,
};

export const namespaceStatusStrategy: SubresourceStrategy = {
  verbs: ['get', 'patch', 'update'],
  prepareForUpdate(obj, old) {
    if (old.spec === undefined) delete obj.spec;
    else obj.spec = structuredClone(old.spec);
  },
  validateUpdate: validateNamespaceStatusUpdate,
};

export const namespaceFinalizeStrategy: SubresourceStrategy = {
  verbs: ['update'],
  prepareForUpdate(obj, old) {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  },
  validateUpdate: validateNamespaceFinalizeUpdate,
};
