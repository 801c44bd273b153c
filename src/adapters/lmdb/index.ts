export { LmdbStorage, openLmdbStorage, type LmdbStorageOptions } from './lmdb-storage';
