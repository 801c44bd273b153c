/** The namespace controller's status conditions, as upstream's condition updater. */
import { updateConditions, type DeletionOutcome } from '../../../src/controllers/namespace/deletion-conditions';

const clean: DeletionOutcome = { deleteErrors: [], remaining: new Map(), finalizers: new Map() };

describe('namespace deletion conditions', () => {
  test('all five types, False with upstream\'s reasons when all went well', () => {
    const { conditions, changed } = updateConditions(undefined, clean, '2026-01-01T00:00:00Z');
    expect(changed).toBe(true);
    expect(conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
      ['NamespaceContentRemaining', 'False', 'ContentRemoved'],
      ['NamespaceFinalizersRemaining', 'False', 'ContentRemoved'],
    ]);
    expect(updateConditions(conditions, clean, '2026-01-01T00:01:00Z').changed).toBe(false);
  });

  test('failures and remaining content, sorted; the transition time moves only with the status', () => {
    const first = updateConditions(undefined, clean, '2026-01-01T00:00:00Z').conditions;
    const outcome: DeletionOutcome = {
      deleteErrors: ['z failed', 'a failed'],
      remaining: new Map([['leases.coordination.svc.io', 1], ['configmaps.', 2]]),
      finalizers: new Map([['example.com/b', 1], ['example.com/a', 2]]),
    };
    const { conditions, changed } = updateConditions(first, outcome, '2026-01-01T00:05:00Z');
    expect(changed).toBe(true);
    const byType = Object.fromEntries(conditions.map((c) => [c.type, c]));
    expect(byType.NamespaceDeletionContentFailure).toEqual({
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      reason: 'ContentDeletionFailed',
      message: 'Failed to delete all resource types, 2 remaining: a failed, z failed',
      lastTransitionTime: '2026-01-01T00:05:00Z',
    });
    expect(byType.NamespaceContentRemaining.message).toBe('Some resources are remaining: configmaps. has 2 resource instances, leases.coordination.svc.io has 1 resource instances');
    // upstream's strings since 1.17 (status_condition_utils.go): SomeFinalizersRemain, "Some content in the namespace ...".
    expect(byType.NamespaceFinalizersRemaining).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: 'Some content in the namespace has finalizers remaining: example.com/a in 2 resource instances, example.com/b in 1 resource instances',
    });
    expect(byType.NamespaceContentRemaining).toMatchObject({ status: 'True', reason: 'SomeResourcesRemain' });
    expect(byType.NamespaceDeletionDiscoveryFailure.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
  });
});
