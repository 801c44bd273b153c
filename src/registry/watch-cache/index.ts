export { WatchCache } from './watch-cache';
export { CachedReadPath } from './cached-reader';
export { CacheWatcher, type EventItem, type EventWatcher, type WatchItem } from './cache-watcher';
export { defaultWatchCacheOptions, type WatchCacheOptions } from './options';
export type { Logger } from './kind-cache';
