/**
 * The bootstrap RBAC policy, as upstream's (plugin/pkg/auth/authorizer/rbac/
 * bootstrappolicy) reduced to the kinds this server serves, plus the spec's
 * rule that every authenticated user and service account may read
 * ClusterTrustBundles.
 */
import type { PolicyRule } from '../ports/authorizer.port';
import { groups } from './user';

export const rbacGroup = 'rbac.authorization.svc.io';
const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const reviewGroups = { authorization: ['authorization.svc.io', 'authorization.k8s.io'], authentication: ['authentication.svc.io', 'authentication.k8s.io'] };

export interface BootstrapRole {
  name: string;
  rules: PolicyRule[];
  labels?: Record<string, string>;
}

export interface BootstrapBinding {
  name: string;
  role: string;
  subjects: Array<{ kind: 'Group' | 'User'; name: string }>;
}

const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

const viewRules: PolicyRule[] = [
  { apiGroups: [''], resources: ['configmaps', 'serviceaccounts', 'events', 'namespaces', 'namespaces/status'], verbs: read },
  { apiGroups: ['events.svc.io'], resources: ['events'], verbs: read },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'], verbs: read },
  { apiGroups: ['coordination.svc.io'], resources: ['leases'], verbs: read },
  { apiGroups: ['scheduling.svc.io'], resources: ['workloads'], verbs: read },
];

const editRules: PolicyRule[] = [
  ...viewRules,
  { apiGroups: [''], resources: ['configmaps', 'events'], verbs: write },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: [...write, 'impersonate'] },
  { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
  { apiGroups: ['events.svc.io'], resources: ['events'], verbs: write },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: write },
  { apiGroups: ['coordination.svc.io'], resources: ['leases'], verbs: write },
  { apiGroups: ['scheduling.svc.io'], resources: ['workloads'], verbs: write },
];

const adminRules: PolicyRule[] = [
  ...editRules,
  { apiGroups: [rbacGroup], resources: ['roles', 'rolebindings'], verbs: [...read, ...write] },
  { apiGroups: reviewGroups.authorization, resources: ['localsubjectaccessreviews'], verbs: ['create'] },
];

export const bootstrapClusterRoles: BootstrapRole[] = [
  { name: 'cluster-admin', rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }] },
  { name: 'admin', rules: adminRules },
  { name: 'edit', rules: editRules },
  { name: 'view', rules: viewRules },
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
].map((r) => ({ ...r, labels: bootstrapLabels }));

export const bootstrapClusterRoleBindings: BootstrapBinding[] = [
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
];
