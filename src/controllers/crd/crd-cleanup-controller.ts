/**
 * Deleting a CustomResourceDefinition, as upstream's finalizer controller:
 * a CRD marked for deletion keeps its cleanup finalizer until every object
 * of its kinds is deleted, reporting progress in its Terminating condition;
 * then the finalizer goes, and with it the CRD. Objects held by finalizers
 * of their own are waited for (the pass runs again a little later).
 */
import type { KObject } from '../../machinery/object';
import { apiVersionOf, type ResourceDefinition } from '../../machinery/resource-definition';
import type { RegistryClient } from '../registry-client';
import { beingDeleted, watching, type WatchChanges } from '../changes';
import type { ClockPort } from '../../ports/clock.port';
import { timestamp } from '../../registry/context';
import {
  CRDConditions,
  customResourceCleanupFinalizer,
  customResourceDefinitionDefinition as crdDef,
  findCondition,
  setCondition,
  type CustomResourceDefinitionSpecObject,
  type CustomResourceDefinitionStatusObject,
} from '../../resources/custom-resource-definition';
import { statusOf, type Log } from '../controller-identity';
import { startPassLoop, type PassLoop } from '../pass-loop';
import { apiserverDelete, apiserverWrite } from './identity';

const retryMs = 1000;
type CRD = KObject & { spec?: CustomResourceDefinitionSpecObject; status?: CustomResourceDefinitionStatusObject };

/** One served definition of the CRD's kinds (all versions share the stored objects). */
function servedKind(registry: RegistryClient, crd: CRD): ResourceDefinition | undefined {
  const group = crd.spec?.group;
  const plural = crd.status?.acceptedNames?.plural;
  return registry.definitions.find((d) => d.decodeBody && d.group === group && d.plural === plural);
}

export function startCrdCleanup(registry: RegistryClient, log: Log, { watch, clock }: { watch: WatchChanges; clock: ClockPort }): PassLoop {
  const now = () => new Date(timestamp(clock.now()));
  const writeStatus = async (crd: CRD, reason: string, message: string, status = 'True') => {
    const have = findCondition(crd.status, CRDConditions.terminating);
    if (have?.status === status && have.reason === reason && have.message === message) return crd;
    const next = structuredClone(crd);
    setCondition((next.status ??= {}), { type: CRDConditions.terminating, status, reason, message }, now());
    return (await registry.update(crdDef, undefined, crd.metadata.name!, next, apiserverWrite(apiVersionOf(crdDef)), 'status')).object as CRD;
  };
  /** Deletes what is left of the CRD's objects; true once none is left. */
  const deleteInstances = async (crd: CRD): Promise<boolean> => {
    const def = servedKind(registry, crd);
    if (!def) return true;
    const items = (await registry.list(def, {})).items;
    for (const item of items) {
      if (item.metadata.deletionTimestamp) continue;
      try {
        await registry.delete(def, item.metadata.namespace, item.metadata.name!, apiserverDelete(apiVersionOf(def)));
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
      }
    }
    return items.length === 0;
  };
  const finish = async (crd: CRD) => {
    const done = await writeStatus(crd, 'InstanceDeletionCompleted', 'removed all instances', 'False');
    const next = structuredClone(done);
    next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== customResourceCleanupFinalizer);
    await registry.update(crdDef, undefined, crd.metadata.name!, next, apiserverWrite(apiVersionOf(crdDef)));
  };
  return startPassLoop({
    name: 'crd-cleanup',
    // CRDs being deleted; while their objects go, the pass comes back on its own.
    subscribe: watching(watch, [[crdDef, beingDeleted]]),
    log,
    pass: async (stopped) => {
      const crds = (await registry.list(crdDef, { resourceVersion: '0' })).items as CRD[];
      let again: number | undefined;
      for (const crd of crds) {
        if (stopped()) return undefined;
        if (!crd.metadata.deletionTimestamp || !crd.metadata.finalizers?.includes(customResourceCleanupFinalizer)) continue;
        try {
          const current = await writeStatus(crd, 'InstanceDeletionInProgress', 'CustomResource deletion is in progress');
          if (await deleteInstances(current)) await finish(current);
          else again = retryMs;
        } catch (e) {
          if (statusOf(e) === 409 || statusOf(e) === 404) continue;
          log('warn', 'could not delete the objects of a CustomResourceDefinition', { crd: crd.metadata.name, error: (e as Error).message });
          await writeStatus(crd, 'InstanceDeletionFailed', `could not list instances: ${(e as Error).message}`).catch(() => undefined);
          again = retryMs;
        }
      }
      return again;
    },
  });
}
