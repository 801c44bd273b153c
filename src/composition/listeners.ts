/**
 * Ports are bound first, before a PKI or a store is written: a port that another process holds is a start error
 * with nothing left behind. The bound socket is then handed to the real server (server.listen accepts a listening
 * net.Server's handle), so nothing can take the port in between.
 */
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { Server } from 'node:http';
import type { Server as TlsServer } from 'node:https';
import { listenError, type ListenFlags } from '../config/startup';

export interface Reserved {
  flags: ListenFlags;
  socket: NetServer;
  port: number;
}

/** Binds the address and port; rejects with the sentence that names the flags. */
export function reserve(flags: ListenFlags): Promise<Reserved> {
  return new Promise((resolve, reject) => {
    const socket = createServer();
    // Connections that arrive before the server takes over (a probe, an eager client) are dropped, not left hanging.
    socket.on('connection', (c) => c.destroy());
    socket.once('error', (e) => reject(new Error(listenError(flags, e))));
    socket.listen(flags.port, flags.address, () => resolve({ flags, socket, port: (socket.address() as AddressInfo).port }));
  });
}

/** The server takes over the reserved socket; resolves once it listens. */
export function serveOn(server: Server | TlsServer, reserved: Reserved): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(reserved.socket, () => {
      server.off('error', reject);
      resolve(reserved.port);
    });
  });
}

/** Gives the port back (a start that ends before serving). */
export function release(reserved: Reserved[]): void {
  for (const r of reserved) r.socket.close();
}
