/**
 * Storage failures as the Status a client sees, the way upstream's
 * storage error interpretation does it: a deadline is a 504, storage that
 * cannot serve is a 503 with Retry-After, an overloaded one a 429, a value
 * too large for it a 413. Never a 500 carrying a transport message.
 */
import { ApiError, errors } from '../machinery/status';
import { StorageBusyError, StorageTimeoutError, UnavailableError, ValueTooLargeError } from '../ports/storage.port';

export function storageErrorStatus(err: unknown): ApiError | undefined {
  if (err instanceof StorageTimeoutError) return errors.storageTimeout(err.message);
  if (err instanceof UnavailableError) return errors.serviceUnavailable(err.message, 1);
  if (err instanceof StorageBusyError) return errors.tooManyRequests(err.message, 1);
  if (err instanceof ValueTooLargeError) return errors.requestEntityTooLarge(err.message);
  return undefined;
}
