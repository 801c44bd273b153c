/** Every storage call has a deadline; the errors map to upstream's codes. */
import { StorageBusyError, StorageTimeoutError, UnavailableError, ValueTooLargeError, type StoragePort } from '../../../src/ports/storage.port';
import { withDeadlines } from '../../../src/registry/storage-deadline';
import { storageErrorStatus } from '../../../src/registry/storage-errors';

const never = () => new Promise<never>(() => undefined);
const hung = {
  currentRevision: never,
  get: never,
  range: never,
  create: never,
  update: never,
  delete: never,
  compact: never,
  compactedRevision: never,
  watch: () => ({ cancel: () => undefined }),
  ping: async () => false,
  close: async () => undefined,
} as unknown as StoragePort;

test('a storage that never answers fails every call with StorageTimeoutError', async () => {
  const s = withDeadlines(hung, 20);
  const calls = [s.currentRevision(), s.get('/k'), s.range('/'), s.create('/k', Buffer.from('v')), s.update('/k', Buffer.from('v'), 1), s.delete('/k', 1), s.compact(1), s.compactedRevision()];
  for (const c of calls) await expect(c).rejects.toBeInstanceOf(StorageTimeoutError);
});

test('answers in time pass through untouched', async () => {
  const fast = { ...hung, get: async () => undefined, currentRevision: async () => 7 } as StoragePort;
  const s = withDeadlines(fast, 1000);
  await expect(s.currentRevision()).resolves.toBe(7);
  await expect(s.get('/k')).resolves.toBeUndefined();
});

test('storage errors become 504, 503 with Retry-After, 429 and 413; others are left alone', () => {
  expect(storageErrorStatus(new StorageTimeoutError(10_000))?.status).toMatchObject({
    code: 504,
    reason: 'Timeout',
    message: 'Timeout: request did not complete within requested timeout - storage did not answer within 10s',
  });
  expect(storageErrorStatus(new UnavailableError('etcd is unavailable'))?.status).toMatchObject({ code: 503, reason: 'ServiceUnavailable', details: { retryAfterSeconds: 1 } });
  expect(storageErrorStatus(new StorageBusyError('busy'))?.status).toMatchObject({ code: 429, reason: 'TooManyRequests' });
  expect(storageErrorStatus(new ValueTooLargeError('too large'))?.status).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge' });
  expect(storageErrorStatus(new Error('other'))).toBeUndefined();
});

test('calls a storage bounds by itself get no timer of their own, except a write with a TTL (two calls to etcd)', async () => {
  // Fake timers: "no timer of their own" is shown by running every timer there is, not by waiting a while.
  jest.useFakeTimers();
  try {
    const self = { ...hung, callTimeoutMs: 20 } as StoragePort;
    const s = withDeadlines(self, 20);
    let settled = false;
    const own = [s.currentRevision(), s.get('/k'), s.range('/'), s.create('/k', Buffer.from('v')), s.update('/k', Buffer.from('v'), 1), s.delete('/k', 1)];
    for (const c of own) c.then(() => (settled = true), () => (settled = true));
    const timed = [
      s.create('/k', Buffer.from('v'), { ttlSeconds: 5 }),
      s.update('/k', Buffer.from('v'), 1, { ttlSeconds: 5 }),
      s.compactedRevision(),
      // A read at a revision may take more reads after etcd refuses it (to tell compacted from future): bounded as a whole.
      s.range('/', { revision: 5 }),
    ];
    const outcomes = Promise.all(timed.map((c) => c.catch((err: unknown) => err)));
    await jest.runAllTimersAsync();
    for (const outcome of await outcomes) expect(outcome).toBeInstanceOf(StorageTimeoutError);
    expect(settled).toBe(false); // left to the storage (which here never answers)
  } finally {
    jest.useRealTimers();
  }
  // A storage whose own deadline is longer than the server's is bounded as before.
  const slower = withDeadlines({ ...hung, callTimeoutMs: 60_000 } as StoragePort, 20);
  await expect(slower.get('/k')).rejects.toBeInstanceOf(StorageTimeoutError);
});

test('a storage call that throws instead of rejecting is a rejection, with or without the timer', async () => {
  const throwing = { ...hung, get: () => { throw new Error('sync'); } } as unknown as StoragePort;
  await expect(withDeadlines(throwing, 20).get('/k')).rejects.toThrow('sync');
  await expect(withDeadlines({ ...throwing, callTimeoutMs: 20 } as StoragePort, 20).get('/k')).rejects.toThrow('sync');
});
