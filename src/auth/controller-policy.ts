/**
 * The bootstrap roles of the in-process controllers and of the certificate
 * flows, as upstream's controller_policy.go and policy.go name them (with
 * certificates.svc.io and this server's signers): each controller's service
 * account in kube-system gets `system:controller:<name>`; the node bootstrap
 * and approver roles exist unbound, for administrators to bind.
 */
import type { PolicyRule } from '../ports/authorizer.port';

// The shapes of bootstrap-policy.ts, restated to keep the two files free of a cycle.
interface BootstrapRole {
  name: string;
  rules: PolicyRule[];
  labels?: Record<string, string>;
}
interface BootstrapBinding {
  name: string;
  role: string;
  subjects: Array<{ kind: 'User'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string }>;
}

const certificatesGroup = 'certificates.svc.io';
const read = ['get', 'list', 'watch'];
const builtInSigners = ['svc.io/apiserver-client', 'svc.io/apiserver-client-node', 'svc.io/node-serving', 'svc.io/apiserver-client-pod'];
const sar = { apiGroups: ['authorization.svc.io', 'authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] };

/** The Lease kube-controller-manager's leader election uses. */
export const controllerManagerLease = 'svc-controller-manager';

const controllerRoles: Array<{ account: string; rules: PolicyRule[] }> = [
  {
    account: 'certificate-controller',
    rules: [
      { apiGroups: [certificatesGroup], resources: ['certificatesigningrequests'], verbs: [...read, 'delete'] },
      { apiGroups: [certificatesGroup], resources: ['certificatesigningrequests/status', 'certificatesigningrequests/approval'], verbs: ['update'] },
      { apiGroups: [certificatesGroup], resources: ['signers'], resourceNames: ['svc.io/apiserver-client-node'], verbs: ['approve'] },
      { apiGroups: [certificatesGroup], resources: ['signers'], resourceNames: builtInSigners, verbs: ['sign'] },
      { apiGroups: [certificatesGroup], resources: ['podcertificaterequests'], verbs: read },
      { apiGroups: [certificatesGroup], resources: ['podcertificaterequests/status'], verbs: ['update'] },
      { apiGroups: [''], resources: ['serviceaccounts', 'namespaces'], verbs: ['get'] },
      sar,
    ],
  },
  {
    account: 'clustertrustbundle-publisher',
    rules: [
      { apiGroups: [certificatesGroup], resources: ['clustertrustbundles'], verbs: ['create', 'delete', 'get', 'list', 'update', 'watch'] },
      { apiGroups: [certificatesGroup], resources: ['signers'], resourceNames: builtInSigners, verbs: ['attest'] },
    ],
  },
  {
    account: 'podcertificaterequestcleaner',
    rules: [{ apiGroups: [certificatesGroup], resources: ['podcertificaterequests'], verbs: ['list', 'watch', 'delete'] }],
  },
  {
    account: 'generic-garbage-collector',
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['delete', 'get', 'list', 'patch', 'update', 'watch'] }],
  },
];

const approver = (signer: string): BootstrapRole => ({
  name: `system:certificates.svc.io:${signer.slice('svc.io/'.length)}-approver`,
  rules: [{ apiGroups: [certificatesGroup], resources: ['signers'], resourceNames: [signer], verbs: ['approve'] }],
});

export const controllerClusterRoles: BootstrapRole[] = [
  ...controllerRoles.map((r) => ({ name: `system:controller:${r.account}`, rules: r.rules })),
  {
    name: 'system:kube-controller-manager',
    rules: [
      { apiGroups: ['coordination.svc.io'], resources: ['leases'], verbs: ['create'] },
      { apiGroups: ['coordination.svc.io'], resources: ['leases'], resourceNames: [controllerManagerLease], verbs: ['get', 'update'] },
    ],
  },
  { name: 'system:node-bootstrapper', rules: [{ apiGroups: [certificatesGroup], resources: ['certificatesigningrequests'], verbs: ['create', ...read] }] },
  {
    name: 'system:certificates.svc.io:certificatesigningrequests:nodeclient',
    rules: [{ apiGroups: [certificatesGroup], resources: ['certificatesigningrequests/nodeclient'], verbs: ['create'] }],
  },
  {
    name: 'system:certificates.svc.io:certificatesigningrequests:selfnodeclient',
    rules: [{ apiGroups: [certificatesGroup], resources: ['certificatesigningrequests/selfnodeclient'], verbs: ['create'] }],
  },
  approver('svc.io/apiserver-client'),
  approver('svc.io/apiserver-client-node'),
  approver('svc.io/node-serving'),
];

export const controllerClusterRoleBindings: BootstrapBinding[] = [
  ...controllerRoles.map((r): BootstrapBinding => ({
    name: `system:controller:${r.account}`,
    role: `system:controller:${r.account}`,
    subjects: [{ kind: 'ServiceAccount', namespace: 'kube-system', name: r.account }],
  })),
  { name: 'system:kube-controller-manager', role: 'system:kube-controller-manager', subjects: [{ kind: 'User', name: 'system:kube-controller-manager' }] },
];
