/**
 * The bootstrap RBAC policy, as upstream's (plugin/pkg/auth/authorizer/rbac/
 * bootstrappolicy) reduced to the kinds this server serves, plus the spec's
 * rule that every authenticated user and service account may read
 * ClusterTrustBundles.
 */
import type { PolicyRule } from '../ports/authorizer.port';
import { groups } from './user';
import { controllerClusterRoleBindings, controllerClusterRoles } from './controller-policy';

export const rbacGroup = 'rbac.authorization.svc.io';
const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const reviewGroups = { authorization: ['authorization.svc.io', 'authorization.k8s.io'], authentication: ['authentication.svc.io', 'authentication.k8s.io'] };

export interface BootstrapRole {
  name: string;
  rules: PolicyRule[];
  labels?: Record<string, string>;
  /** admin, edit and view are aggregated from the roles labelled for them, as upstream. */
  aggregationRule?: { clusterRoleSelectors: Array<{ matchLabels: Record<string, string> }> };
}

export interface BootstrapBinding {
  name: string;
  role: string;
  subjects: Array<{ kind: 'Group' | 'User'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string }>;
}

export const aggregateLabel = (to: 'admin' | 'edit' | 'view') => `rbac.authorization.svc.io/aggregate-to-${to}`;
const aggregated = (to: 'admin' | 'edit' | 'view') => ({ clusterRoleSelectors: [{ matchLabels: { [aggregateLabel(to)]: 'true' } }] });
const labelled = (...to: Array<'admin' | 'edit' | 'view'>) => Object.fromEntries(to.map((t) => [aggregateLabel(t), 'true']));

const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

const viewRules: PolicyRule[] = [
  { apiGroups: [''], resources: ['configmaps', 'serviceaccounts', 'events', 'namespaces', 'namespaces/status'], verbs: read },
  { apiGroups: ['events.svc.io'], resources: ['events'], verbs: read },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'], verbs: read },
  { apiGroups: ['coordination.svc.io'], resources: ['leases'], verbs: read },
  { apiGroups: ['scheduling.svc.io'], resources: ['workloads'], verbs: read },
];

const editRules: PolicyRule[] = [
  { apiGroups: [''], resources: ['configmaps', 'events'], verbs: write },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: [...write, 'impersonate'] },
  { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
  { apiGroups: ['events.svc.io'], resources: ['events'], verbs: write },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: write },
  { apiGroups: ['coordination.svc.io'], resources: ['leases'], verbs: write },
  { apiGroups: ['scheduling.svc.io'], resources: ['workloads'], verbs: write },
];

const adminRules: PolicyRule[] = [
  { apiGroups: [rbacGroup], resources: ['roles', 'rolebindings'], verbs: [...read, ...write] },
  { apiGroups: reviewGroups.authorization, resources: ['localsubjectaccessreviews'], verbs: ['create'] },
];

export const aggregationControllerAccount = { namespace: 'kube-system', name: 'clusterrole-aggregation-controller' };

export const bootstrapClusterRoles: BootstrapRole[] = [
  { name: 'cluster-admin', rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }] },
  // The aggregation controller fills these from the system:aggregate-to-* roles (and any a user labels).
  { name: 'admin', rules: [], aggregationRule: aggregated('admin') },
  { name: 'edit', rules: [], aggregationRule: aggregated('edit'), labels: labelled('admin') },
  { name: 'view', rules: [], aggregationRule: aggregated('view'), labels: labelled('admin', 'edit') },
  { name: 'system:aggregate-to-admin', rules: adminRules, labels: labelled('admin') },
  { name: 'system:aggregate-to-edit', rules: editRules, labels: labelled('admin', 'edit') },
  { name: 'system:aggregate-to-view', rules: viewRules, labels: labelled('admin', 'edit', 'view') },
  {
    name: 'system:controller:clusterrole-aggregation-controller',
    rules: [{ apiGroups: [rbacGroup], resources: ['clusterroles'], verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'] }],
  },
  {
    name: 'system:basic-user',
    rules: [
      { apiGroups: reviewGroups.authorization, resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] },
      { apiGroups: reviewGroups.authentication, resources: ['selfsubjectreviews'], verbs: ['create'] },
    ],
  },
  {
    name: 'system:discovery',
    rules: [{ nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], verbs: ['get'] }],
  },
  { name: 'system:public-info-viewer', rules: [{ nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] }] },
  { name: 'system:cluster-trust-bundle-reader', rules: [{ apiGroups: ['certificates.svc.io'], resources: ['clustertrustbundles'], verbs: read }] },
  // For servers that delegate authentication and authorization to this one (upstream binds it to nobody).
  {
    name: 'system:auth-delegator',
    rules: [
      { apiGroups: reviewGroups.authentication, resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: reviewGroups.authorization, resources: ['subjectaccessreviews'], verbs: ['create'] },
    ],
  },
  ...controllerClusterRoles,
].map((r) => ({ ...r, labels: { ...bootstrapLabels, ...r.labels } }));

export const bootstrapClusterRoleBindings: BootstrapBinding[] = [
  {
    name: 'system:controller:clusterrole-aggregation-controller',
    role: 'system:controller:clusterrole-aggregation-controller',
    subjects: [{ kind: 'ServiceAccount', ...aggregationControllerAccount }],
  },
  { name: 'cluster-admin', role: 'cluster-admin', subjects: [{ kind: 'Group', name: groups.masters }] },
  { name: 'system:basic-user', role: 'system:basic-user', subjects: [{ kind: 'Group', name: groups.authenticated }] },
  { name: 'system:discovery', role: 'system:discovery', subjects: [{ kind: 'Group', name: groups.authenticated }] },
  {
    name: 'system:public-info-viewer',
    role: 'system:public-info-viewer',
    subjects: [
      { kind: 'Group', name: groups.authenticated },
      { kind: 'Group', name: groups.unauthenticated },
    ],
  },
  {
    name: 'system:cluster-trust-bundle-reader',
    role: 'system:cluster-trust-bundle-reader',
    subjects: [
      { kind: 'Group', name: groups.authenticated },
      { kind: 'Group', name: groups.serviceAccounts },
    ],
  },
  ...controllerClusterRoleBindings,
];
