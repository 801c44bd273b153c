/**
 * Writes each CustomResourceDefinition's accepted names and its
 * NamesAccepted and Established conditions (crd-names.ts decides them)
 * through its status subresource. A write that loses a race waits for the
 * next pass, which sees the winner.
 */
import type { KObject } from '../../machinery/object';
import { apiVersionOf } from '../../machinery/resource-definition';
import type { RegistryClient } from '../registry-client';
import { watching, type WatchChanges } from '../changes';
import type { ClockPort } from '../../ports/clock.port';
import { timestamp } from '../../registry/context';
import { customResourceDefinitionDefinition as crdDef, findCondition, setCondition, type CustomResourceDefinitionStatusObject } from '../../resources/custom-resource-definition';
import { type Log } from '../controller-identity';
import { handleEach, startPassLoop, type PassLoop } from '../pass-loop';
import { decideNames } from './crd-names';
import { apiserverWrite } from './identity';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function startCrdNaming(registry: RegistryClient, log: Log, { watch, clock }: { watch: WatchChanges; clock: ClockPort }): PassLoop {
  const builtIn = () => registry.definitions.filter((d) => !d.decodeBody);
  return startPassLoop({
    name: 'crd-naming',
    subscribe: watching(watch, [crdDef]),
    log,
    pass: async (stopped) => {
      const crds = (await registry.list(crdDef, { resourceVersion: '0' })).items;
      return handleEach(crds, stopped, async (crd) => {
        const decision = decideNames(crd, crds, builtIn());
        const status = (crd.status ?? {}) as CustomResourceDefinitionStatusObject;
        const unchanged =
          same(status.acceptedNames ?? {}, decision.acceptedNames) &&
          [decision.namesAccepted, decision.established].every((c) => {
            const have = findCondition(status, c.type);
            return have?.status === c.status && have.reason === c.reason && have.message === c.message;
          });
        if (unchanged) return;
        const next = structuredClone(crd) as KObject & { status: CustomResourceDefinitionStatusObject };
        next.status ??= {};
        next.status.acceptedNames = decision.acceptedNames;
        const now = new Date(timestamp(clock.now()));
        setCondition(next.status, decision.namesAccepted, now);
        setCondition(next.status, decision.established, now);
        await registry.update(crdDef, undefined, crd.metadata.name!, next, apiserverWrite(apiVersionOf(crdDef)), 'status');
      }, (crd, e) => log('warn', 'could not write the names of a CustomResourceDefinition', { crd: crd.metadata.name, error: (e as Error).message }));
    },
  });
}
