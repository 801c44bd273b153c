/**
 * Graceful shutdown under keep-alive load: a request that arrives on an open connection once shutdown has
 * begun is answered with `Connection: close`, so the client moves to another replica and shutdown
 * completes instead of waiting on a connection that is never idle.
 */
import 'reflect-metadata';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { assemble } from '../../src/composition/assemble';
import { FeatureGates } from '../../src/machinery/feature-gates';
import { openStorage } from '../support/test-server';

test('a request arriving during shutdown gets Connection: close, and shutdown completes', async () => {
  const { storage, cleanup } = openStorage('lmdb');
  const assembled = assemble({ storage, gates: new FeatureGates({}), log: () => undefined });
  try {
    await new Promise<void>((resolve) => assembled.server.listen(0, '127.0.0.1', resolve));
    const socket = net.connect((assembled.server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (received += d));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));

    // The request is half sent when shutdown begins, so the connection is busy (not idle, not closed by
    // shutdown), as a keep-alive connection under steady load always is; its end arrives afterwards.
    socket.write('GET /version HTTP/1.1\r\nHost: apiserver\r\n');
    await new Promise((r) => setTimeout(r, 200));
    const shutdown = assembled.shutdown();
    socket.write('\r\n');

    await closed;
    await shutdown;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
  } finally {
    cleanup();
  }
});
