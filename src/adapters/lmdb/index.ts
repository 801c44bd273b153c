export { LmdbStorage, openLmdbStorage, type LmdbStorageOptions } from './lmdb-storage';
export { DataDirError } from './data-dir';
