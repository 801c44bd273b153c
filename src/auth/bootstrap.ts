/**
 * Reconciles the bootstrap policy at start: every bootstrap ClusterRole and
 * ClusterRoleBinding is created when missing (so a deleted one comes back
 * on the next start) and never overwritten when present (user edits stay).
 */
import type { ResourceDefinition } from '../machinery/resource-definition';
import type { Registry } from '../registry/registry';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, rbacGroup } from './bootstrap-policy';
import { localAdmin } from './user';

type Log = (level: string, msg: string, extra?: object) => void;

function served(registry: Registry, plural: string): ResourceDefinition | undefined {
  return registry.definitions.find((d) => d.group === rbacGroup && d.plural === plural);
}

async function createIfMissing(registry: Registry, def: ResourceDefinition, obj: Record<string, unknown> & { metadata: { name: string; [k: string]: unknown } }): Promise<boolean> {
  try {
    await registry.store(def).get(undefined, obj.metadata.name);
    return false;
  } catch (e) {
    if ((e as { status?: { code?: number } }).status?.code !== 404) throw e;
  }
  try {
    await registry.create(def, undefined, { apiVersion: `${def.group}/${def.version}`, kind: def.kind, ...obj }, {
      user: localAdmin,
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

export async function reconcileBootstrapPolicy(registry: Registry, log: Log): Promise<number> {
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
