/** The CustomResourceDefinition controllers, which every replica runs as part of the API server. */
import type { ClockPort } from '../../ports/clock.port';
import type { WebhookPort } from '../../ports/webhook.port';
import type { DefinitionSet } from '../../registry/definition-set';
import { customResourceDefinitionDefinition } from '../../resources/custom-resource-definition';
import type { Log } from '../controller-identity';
import type { RegistryClient } from '../registry-client';
import type { WatchChanges } from '../changes';
import { startCrdServing } from './crd-serving';
import { startCrdNaming } from './crd-naming-controller';
import { startCrdCleanup } from './crd-cleanup-controller';

export { startCrdServing, type CrdServing } from './crd-serving';
export { startCrdNaming } from './crd-naming-controller';
export { startCrdCleanup } from './crd-cleanup-controller';

/**
 * Names and conditions, cleanup on delete, and serving the kinds CRDs define (into `servedKinds`, the registry's
 * served set), each woken by CRD changes in the watch cache. `webhooks` calls CRDs' conversion webhooks.
 */
export function startCrdControllers(
  registry: RegistryClient,
  servedKinds: Pick<DefinitionSet, 'add' | 'remove'>,
  log: Log,
  { watch, clock, webhooks }: { watch: WatchChanges; clock: ClockPort; webhooks?: WebhookPort },
): { synced(): boolean; stop(): Promise<void> } {
  if (!registry.definitions.includes(customResourceDefinitionDefinition)) return { synced: () => true, stop: async () => undefined };
  const serving = startCrdServing(registry, servedKinds, log, watch, webhooks);
  const loops = [serving, startCrdNaming(registry, log, { watch, clock }), startCrdCleanup(registry, log, { watch, clock })];
  return {
    synced: () => serving.synced(),
    stop: async () => {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
