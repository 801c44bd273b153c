/** etcd and gRPC failures become port errors with messages a client may read. */
import { GRPCDeadlineExceededError, GRPCInvalidArgumentError, GRPCResourceExhastedError, GRPCUnavailableError, EtcdError } from 'etcd3';
import { toStorageError } from '../../../src/adapters/etcd/etcd-keys';
import { StorageBusyError, StorageTimeoutError, UnavailableError, ValueTooLargeError } from '../../../src/ports/storage.port';

test.each([
  [new GRPCDeadlineExceededError('4 DEADLINE_EXCEEDED: Deadline exceeded after 0.001s,waiting for name resolution'), StorageTimeoutError, 'etcd did not answer within 10s'],
  [new EtcdError('etcdserver: request timed out'), StorageTimeoutError, 'etcd did not commit the request in time (etcdserver: request timed out)'],
  [new GRPCInvalidArgumentError('etcdserver: request is too large'), ValueTooLargeError, 'the request is larger than etcd accepts (its --max-request-bytes, 1572864 bytes by default)'],
  [new GRPCResourceExhastedError('etcdserver: too many requests'), StorageBusyError, 'etcd is overloaded (too many requests); try again shortly'],
  [new GRPCUnavailableError('14 UNAVAILABLE: No connection established'), UnavailableError, 'etcd is unavailable: none of the --etcd-servers answers; try again shortly'],
  [new EtcdError('etcdserver: no leader'), UnavailableError, 'etcd has no leader right now; try again shortly'],
  [new EtcdError('etcdserver: mvcc: database space exceeded'), UnavailableError, expect.stringContaining('NOSPACE')],
])('%s', (err, type, message) => {
  const mapped = toStorageError(err, 10_000) as Error;
  expect(mapped).toBeInstanceOf(type);
  expect(mapped.message).toEqual(message);
  expect((mapped as { cause?: unknown }).cause).toBe(err);
});

test('other errors pass through', () => {
  const err = new Error('something else');
  expect(toStorageError(err)).toBe(err);
});
