/**
 * The ClusterRole aggregation controller (upstream's
 * clusterroleaggregation): a ClusterRole with an aggregationRule holds the
 * rules of every ClusterRole its selectors match. It reads ClusterRoles
 * through the registry (from the watch cache) whenever they change and
 * writes through the registry as its own identity.
 */
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition, UserInfo } from '../../machinery/resource-definition';
import type { Registry } from '../../registry/registry';
import { aggregatedRules, sameRules, type ClusterRoleLike } from '../../auth/rbac';

export const aggregationControllerUser: UserInfo = {
  username: 'system:serviceaccount:kube-system:clusterrole-aggregation-controller',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
};

type Log = (level: 'debug' | 'info' | 'warn' | 'error', msg: string, extra?: object) => void;

export interface AggregationControllerOptions {
  /** A counter that changes whenever any ClusterRole changes (the watch cache's). */
  changes: () => number;
  intervalMs?: number;
}

/** One pass: rewrites every aggregated ClusterRole whose rules are stale; returns how many it updated. */
export async function syncAggregatedClusterRoles(registry: Registry, def: ResourceDefinition, log: Log): Promise<number> {
  const roles = (await registry.list(def, { resourceVersion: '0' })).items;
  let updated = 0;
  for (const role of roles) {
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
        apiVersion: `${def.group}/${def.version}`,
      });
      updated++;
    } catch (e) {
      // A conflict means another write came first: the next pass sees it.
      log('debug', 'ClusterRole aggregation write failed, retrying on the next change', { name: role.metadata.name, error: (e as Error).message });
    }
  }
  return updated;
}

export function startClusterRoleAggregation(registry: Registry, log: Log, opts: AggregationControllerOptions): { stop(): void } {
  const def = registry.definitions.find((d) => d.group === 'rbac.authorization.svc.io' && d.plural === 'clusterroles');
  if (!def) return { stop() {} };
  let seen = -1;
  let running = false;
  let failures = 0;
  const tick = async () => {
    const now = opts.changes();
    if (running || (now === seen && failures === 0)) return;
    running = true;
    try {
      await syncAggregatedClusterRoles(registry, def, log);
      seen = now;
      failures = 0;
    } catch (e) {
      failures++;
      log('debug', 'ClusterRole aggregation pass failed', { error: (e as Error).message });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), opts.intervalMs ?? 250);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
