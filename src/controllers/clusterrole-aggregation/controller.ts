/**
 * The ClusterRole aggregation controller (upstream's
 * clusterroleaggregation): a ClusterRole with an aggregationRule holds the
 * rules of every ClusterRole its selectors match. A pass runs whenever the
 * watch cache applied a ClusterRole change; it reads ClusterRoles through
 * the registry (from the cache) and writes as its own identity.
 */
import type { KObject } from '../../machinery/object';
import { apiVersionOf, type ResourceDefinition } from '../../machinery/resource-definition';
import { aggregatedRules, sameRules, type ClusterRoleLike } from '../../auth/rbac';
import { serviceAccountUser, statusOf, type Log } from '../controller-identity';
import { startPassLoop, type PassLoop } from '../pass-loop';
import type { RegistryClient } from '../registry-client';
import { watching, type WatchChanges } from '../changes';

export const aggregationControllerUser = serviceAccountUser('clusterrole-aggregation-controller');

/** One pass: rewrites every aggregated ClusterRole whose rules are stale; true when a write failed for another reason than a race. */
export async function syncAggregatedClusterRoles(registry: RegistryClient, def: ResourceDefinition, log: Log, stopped: () => boolean = () => false): Promise<boolean> {
  const roles = (await registry.list(def, { resourceVersion: '0' })).items;
  let failed = false;
  for (const role of roles) {
    if (stopped()) break;
    let want;
    try {
      want = aggregatedRules(role as ClusterRoleLike, roles as ClusterRoleLike[]);
    } catch (e) {
      log('warn', 'cannot aggregate ClusterRole', { name: role.metadata.name, error: (e as Error).message });
      continue;
    }
    if (!want || sameRules(want, (role.rules as ClusterRoleLike['rules']) ?? [])) continue;
    const next: KObject = { ...role, rules: want };
    try {
      await registry.update(def, undefined, role.metadata.name!, next, {
        user: aggregationControllerUser,
        dryRun: false,
        fieldManager: 'clusterrole-aggregation-controller',
        fieldValidation: 'Ignore',
        warnings: [],
        apiVersion: apiVersionOf(def),
      });
    } catch (e) {
      // A conflict, or a role gone: another write came first, and its change wakes the next pass.
      if (statusOf(e) === 409 || statusOf(e) === 404) continue;
      failed = true;
      log('warn', 'ClusterRole aggregation write failed', { name: role.metadata.name, error: (e as Error).message });
    }
  }
  return failed;
}

export function startClusterRoleAggregation(registry: RegistryClient, log: Log, watch: WatchChanges): PassLoop | undefined {
  const def = registry.definitions.find((d) => d.group === 'rbac.authorization.svc.io' && d.plural === 'clusterroles');
  if (!def) return undefined;
  return startPassLoop({
    name: 'clusterrole-aggregation-controller',
    subscribe: watching(watch, [def]),
    log,
    pass: async (stopped) => ((await syncAggregatedClusterRoles(registry, def, log, stopped)) ? 2000 : undefined),
  });
}
