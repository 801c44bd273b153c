/** Tunables of the watch cache; tests shrink them so that suites stay fast. */

export interface WatchCacheOptions {
  /** Events older than this (ms) leave the history. */
  historyWindowMs: number;
  /** Bytes the history of all kinds together may hold (objects and encoded frames); oldest go first. */
  historyMaxBytes: number;
  /** Hard cap of events per kind. */
  historyMaxEvents: number;
  /** How often the history is trimmed by age when no events arrive (ms). */
  historyTrimIntervalMs: number;
  /** How long a read or watch waits for the cache to reach a resourceVersion (upstream: 3 s). */
  freshnessTimeoutMs: number;
  /** While waiting, how often to ask storage for a progress notification. */
  progressRequestIntervalMs: number;
  /** A watcher more events behind than this (its socket not draining) is closed. */
  maxWatcherLagEvents: number;
  /** Page size of the initial list and of relists. */
  listPageSize: number;
  /** A kind's slabs are compacted at most this often (ms). */
  compactionIntervalMs: number;
  /** Backoff bounds when (re)listing fails. */
  retryMinMs: number;
  retryMaxMs: number;
  /** The clock of the history's ages and of compaction (ms since the epoch); the server passes its ClockPort. */
  now: () => number;
}

export const defaultWatchCacheOptions: WatchCacheOptions = {
  historyWindowMs: 5 * 60_000,
  historyMaxBytes: 256 * 1024 * 1024,
  historyMaxEvents: 1_000_000,
  historyTrimIntervalMs: 10_000,
  freshnessTimeoutMs: 3000,
  progressRequestIntervalMs: 100,
  maxWatcherLagEvents: 100_000,
  listPageSize: 1000,
  compactionIntervalMs: 30_000,
  retryMinMs: 100,
  retryMaxMs: 5000,
  now: Date.now,
};
