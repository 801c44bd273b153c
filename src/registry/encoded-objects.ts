/**
 * The object each stored value was encoded from, while that value lives: an
 * in-process store (lmdb) hands the watch cache the very Buffer the registry
 * wrote, and the cache then reads labels and uid from the object instead of
 * parsing the bytes again (a large object's biggest cost after its write).
 * A value from elsewhere (etcd) is not found and is parsed as before.
 */
import type { KObject } from '../machinery/object';

const encoded = new WeakMap<Buffer, KObject>();

export function rememberEncoded(bytes: Buffer, obj: KObject): void {
  encoded.set(bytes, obj);
}

/** The object `bytes` were encoded from, once: the entry goes (the cache takes each value in once). */
export function takeEncoded(bytes: Buffer): KObject | undefined {
  const obj = encoded.get(bytes);
  if (obj) encoded.delete(bytes);
  return obj;
}
