export { ensurePki, ensureAdminKubeconfig, pkiPaths, type EnsuredPki, type PkiPaths } from './pki';
export { fingerprint, issueLeaf, selfSignedCa, type KeyAndCert } from './issue';
export { ensureEtcdPki, etcdPkiPaths, type EtcdPkiPaths } from './etcd-pki';
