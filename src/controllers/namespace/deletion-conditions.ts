/**
 * The status conditions the namespace controller keeps on a Terminating
 * namespace, as upstream's: all five types always present, False with an
 * "ok" reason and message while that part went well, True with what went
 * wrong otherwise; lastTransitionTime changes only with the status.
 */
export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

const okConditions: Array<[type: string, reason: string, message: string]> = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentRemoved', 'All content successfully removed'],
];

/** What one pass over a namespace's content found. */
export interface DeletionOutcome {
  /** Messages of the resources whose deletion failed. */
  deleteErrors: string[];
  /** `<resource>.<group>` -> objects left. */
  remaining: Map<string, number>;
  /** finalizer -> objects it holds. */
  finalizers: Map<string, number>;
}

function failures(outcome: DeletionOutcome): Map<string, Omit<NamespaceCondition, 'type' | 'lastTransitionTime'>> {
  const out = new Map<string, Omit<NamespaceCondition, 'type' | 'lastTransitionTime'>>();
  if (outcome.deleteErrors.length) {
    const msgs = [...outcome.deleteErrors].sort();
    out.set('NamespaceDeletionContentFailure', {
      status: 'True',
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
    });
  }
  const left = [...outcome.remaining].filter(([, n]) => n > 0).map(([r, n]) => `${r} has ${n} resource instances`).sort();
  if (outcome.remaining.size) {
    out.set('NamespaceContentRemaining', { status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${left.join(', ')}` });
  }
  const held = [...outcome.finalizers].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
  if (outcome.finalizers.size) {
    out.set('NamespaceFinalizersRemaining', { status: 'True', reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${held.join(', ')}` });
  }
  return out;
}

/** The conditions after this pass; `changed` is false when nothing needs writing. */
export function updateConditions(current: NamespaceCondition[] | undefined, outcome: DeletionOutcome, now: string): { conditions: NamespaceCondition[]; changed: boolean } {
  const conditions = structuredClone(current ?? []);
  const failed = failures(outcome);
  let changed = false;
  for (const [type, reason, message] of okConditions) {
    const next = failed.get(type) ?? { status: 'False' as const, reason, message };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({ type, status: next.status, lastTransitionTime: now, reason: next.reason, message: next.message });
      changed = true;
    } else if (old.status !== next.status || old.reason !== next.reason || old.message !== next.message) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      Object.assign(old, { status: next.status, reason: next.reason, message: next.message });
      changed = true;
    }
  }
  return { conditions, changed };
}
