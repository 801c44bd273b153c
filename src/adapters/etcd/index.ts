export { EtcdStorage, openEtcdStorage, type EtcdStorageOptions } from './etcd-storage';
