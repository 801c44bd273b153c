/**
 * gRPC's length-prefixed framing of the messages the etcd client sends: one
 * buffer for a small message, and for a large one the 5-byte prefix followed
 * by the message itself, not a copy of it.
 */
import { framed } from '../../../src/adapters/etcd/grpc-messages';

const prefix = (n: number) => Buffer.from([0, n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

test('a small message goes behind its prefix in one buffer', () => {
  const message = Buffer.from('a small put');
  const pieces = framed(message);
  expect(pieces).toHaveLength(1);
  expect(pieces[0]).toEqual(Buffer.concat([prefix(message.length), message]));
});

test('a large message goes as its prefix and then itself, uncopied', () => {
  const message = new Uint8Array(new ArrayBuffer(300 * 1024), 7, 200 * 1024).fill(42);
  const pieces = framed(message);
  expect(pieces).toHaveLength(2);
  expect(pieces[0]).toEqual(prefix(message.length));
  expect(pieces[1].buffer).toBe(message.buffer);
  expect(pieces[1].byteOffset).toBe(7);
  expect(Buffer.concat(pieces)).toEqual(Buffer.concat([prefix(message.length), Buffer.from(message)]));
});
