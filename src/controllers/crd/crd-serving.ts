/**
 * Serves the kinds every established CustomResourceDefinition defines: on
 * each pass (woken by CRD changes) the CRDs in the watch cache are turned into ResourceDefinitions
 * (resources/custom-resource) and the registry's served set is brought in
 * line, so routes, discovery, OpenAPI, stores and the watch cache follow,
 * without a restart, on every replica (each replica runs this, with or
 * without leader election, as each kube-apiserver serves CRDs itself).
 */
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { DefinitionSet } from '../../registry/definition-set';
import type { RegistryClient } from '../registry-client';
import { watching, type WatchChanges } from '../changes';
import { CRDConditions, customResourceDefinitionDefinition, isConditionTrue, type CustomResourceDefinitionStatusObject } from '../../resources/custom-resource-definition';
import { customResourceKinds } from '../../resources/custom-resource';
import type { Log } from '../controller-identity';
import type { WebhookPort } from '../../ports/webhook.port';
import { startPassLoop, type PassLoop } from '../pass-loop';

interface ServedCrd {
  /** What the kinds were built from: a CRD whose spec or names change is built again (its watches end, as upstream's storage is rebuilt). */
  basis: string;
  defs: ResourceDefinition[];
  /** Being deleted: creates are refused. Upstream checks this per request, so its kinds (and their watches) stay as they are. */
  terminating: boolean;
}

/** Whether a CRD's kinds are served: established (names accepted), terminating or not. */
export function isServed(crd: KObject): boolean {
  return isConditionTrue(crd.status as CustomResourceDefinitionStatusObject | undefined, CRDConditions.established);
}

function isTerminating(crd: KObject): boolean {
  return !!crd.metadata.deletionTimestamp || isConditionTrue(crd.status as CustomResourceDefinitionStatusObject | undefined, CRDConditions.terminating);
}

export interface CrdServing extends PassLoop {
  /** The CRDs present when the server started are served (readyz). */
  synced(): boolean;
}

export function startCrdServing(registry: RegistryClient, servedKinds: Pick<DefinitionSet, 'add' | 'remove'>, log: Log, watch: WatchChanges, webhooks?: WebhookPort): CrdServing {
  const served = new Map<string, ServedCrd>();
  let synced = false;
  const replace = (name: string, next: ServedCrd | undefined) => {
    const before = served.get(name);
    for (const def of before?.defs ?? []) servedKinds.remove(def);
    if (next) {
      for (const def of next.defs) servedKinds.add(def);
      served.set(name, next);
    } else served.delete(name);
  };
  const loop = startPassLoop({
    name: 'crd-serving',
    subscribe: watching(watch, [customResourceDefinitionDefinition]),
    log,
    pass: async () => {
      const crds = (await registry.list(customResourceDefinitionDefinition, { resourceVersion: '0' })).items;
      const wanted = new Set<string>();
      for (const crd of crds) {
        const name = crd.metadata.name!;
        if (!isServed(crd)) continue;
        wanted.add(name);
        const terminating = isTerminating(crd);
        const basis = JSON.stringify([crd.metadata.uid, crd.spec, (crd.status as CustomResourceDefinitionStatusObject).acceptedNames]);
        const current = served.get(name);
        if (current?.basis === basis) {
          if (current.terminating !== terminating) log('info', 'custom resources terminating', { crd: name, terminating });
          current.terminating = terminating;
          continue;
        }
        const next: ServedCrd = { basis, defs: [], terminating };
        next.defs = customResourceKinds(crd, { terminating: () => next.terminating, webhooks });
        replace(name, next);
        log('info', 'serving custom resources', { crd: name, versions: next.defs.map((d) => d.version), terminating });
      }
      for (const name of [...served.keys()]) {
        if (wanted.has(name)) continue;
        replace(name, undefined);
        log('info', 'no longer serving custom resources', { crd: name });
      }
      synced = true;
      return undefined;
    },
  });
  return { ...loop, synced: () => synced };
}
