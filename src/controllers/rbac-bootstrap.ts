/**
 * The RBAC bootstrap post-start hook (upstream's rbac/bootstrap-roles), run
 * as a controller of the apiserver: once the watch cache is loaded, every
 * bootstrap ClusterRole and ClusterRoleBinding (auth/bootstrap-policy.ts) is
 * created when missing, so that a deleted one comes back on the next start,
 * and never overwritten when present (user edits stay). It writes through
 * the registry as the apiserver's loopback identity; failures are retried
 * with backoff.
 */
import { apiVersionOf, type ResourceDefinition } from '../machinery/resource-definition';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, rbacGroup } from '../auth/bootstrap-policy';
import { apiserverUser, statusOf, type Log } from './controller-identity';
import { startPassLoop } from './pass-loop';
import type { RegistryClient } from './registry-client';
import { watching, type WatchChanges } from './changes';

function served(registry: RegistryClient, plural: string): ResourceDefinition | undefined {
  return registry.definitions.find((d) => d.group === rbacGroup && d.plural === plural);
}

async function createIfMissing(registry: RegistryClient, def: ResourceDefinition, obj: Record<string, unknown> & { metadata: { name: string; [k: string]: unknown } }): Promise<boolean> {
  try {
    await registry.get(def, undefined, obj.metadata.name);
    return false;
  } catch (e) {
    if (statusOf(e) !== 404) throw e;
  }
  try {
    await registry.create(def, undefined, { apiVersion: apiVersionOf(def), kind: def.kind, ...obj }, {
      user: apiserverUser,
      dryRun: false,
      fieldManager: 'svc-apiserver',
      fieldValidation: 'Strict',
      warnings: [],
    });
    return true;
  } catch (e) {
    if ((e as { status?: { reason?: string } }).status?.reason === 'AlreadyExists') return false; // another replica was first
    throw e;
  }
}

export async function reconcileBootstrapPolicy(registry: RegistryClient, log: Log): Promise<number> {
  const roles = served(registry, 'clusterroles');
  const bindings = served(registry, 'clusterrolebindings');
  if (!roles || !bindings) {
    log('warn', 'ClusterRoles are not served: no bootstrap policy');
    return 0;
  }
  let created = 0;
  for (const r of bootstrapClusterRoles) {
    const role = { metadata: { name: r.name, labels: r.labels }, rules: r.rules, ...(r.aggregationRule ? { aggregationRule: r.aggregationRule } : {}) };
    if (await createIfMissing(registry, roles, role)) created++;
  }
  for (const b of bootstrapClusterRoleBindings) {
    const binding = {
      metadata: { name: b.name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
      roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: b.role },
      subjects: b.subjects.map((s) => (s.kind === 'ServiceAccount' ? s : { ...s, apiGroup: rbacGroup })),
    };
    if (await createIfMissing(registry, bindings, binding)) created++;
  }
  if (created) log('info', 'bootstrap RBAC policy reconciled', { created });
  return created;
}

export interface RbacBootstrap {
  /** Resolves once the policy is in storage (or the hook was stopped first). */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Runs once every kind is loaded in the watch cache (`cacheReady`): each kind's load wakes it. */
export function startRbacBootstrap(registry: RegistryClient, log: Log, options: { watch: WatchChanges; cacheReady: () => boolean }): RbacBootstrap {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let reconciled = false;
  const loop = startPassLoop({
    name: 'rbac/bootstrap-roles',
    subscribe: watching(options.watch, [...registry.definitions]),
    log,
    pass: async () => {
      if (reconciled || !options.cacheReady()) return undefined;
      try {
        await reconcileBootstrapPolicy(registry, log);
      } catch (e) {
        throw new Error(`bootstrap RBAC policy not reconciled yet: ${(e as Error).message}`);
      }
      reconciled = true;
      finish();
      // Done for good: nothing to wake for any more.
      setImmediate(() => void loop.stop());
      return undefined;
    },
  });
  return {
    done,
    async stop() {
      await loop.stop();
      finish();
    },
  };
}
