export { EtcdStorage, openEtcdStorage, type EtcdStorageOptions } from './etcd-storage';
export type { EtcdTls } from './etcd-tls';
