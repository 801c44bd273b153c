export { LmdbStorage, openLmdbStorage, type LmdbStorageOptions } from './lmdb-storage';
export { DataDirError } from './data-dir';
export { describeSnapshot, restoreSnapshot, saveSnapshot, SnapshotError, type SnapshotSummary } from './snapshot';
