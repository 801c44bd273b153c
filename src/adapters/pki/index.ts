export { ensurePki, ensureAdminKubeconfig, pkiPaths, type EnsuredPki, type PkiPaths } from './pki';
export { fingerprint, issueLeaf, selfSignedCa, type KeyAndCert } from './issue';
