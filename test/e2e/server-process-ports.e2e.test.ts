/**
 * The test harness's server start survives a port taken between picking it and the server's listen (in a full run an
 * outgoing connection's local port or another suite's server took one now and then, and a whole suite failed with
 * "another process already uses that address and port"); a port the test chose itself is not replaced.
 */
import { createServer, type Server } from 'node:net';
import { freePort, startServerProcess } from '../support/server-process';

let held: Server;
let heldPort: number;
beforeAll(async () => {
  held = createServer((socket) => socket.destroy()); // a port in use that answers nothing
  await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
  heldPort = (held.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => held.close(() => r())));

test('a picked port found taken is replaced by another, and the server starts', async () => {
  const picks: number[] = [];
  // The second pick (the HTTPS port, which the server listens on first) is a port in use, as a race would leave it.
  const pickPort = async () => {
    const port = picks.length === 1 ? heldPort : await freePort();
    picks.push(port);
    return port;
  };
  const s = await startServerProcess([], { pickPort });
  try {
    expect(picks[1]).toBe(heldPort);
    expect(picks).toHaveLength(4);
    expect(s.securePort).toBe(picks[3]);
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
  } finally {
    await s.stop();
  }
}, 150_000); // two starts, each up to a minute on a loaded machine (the harness's own deadline)

test('a port the test chose itself is not replaced: its failure is the answer', async () => {
  await expect(startServerProcess(['--secure-port', String(heldPort)])).rejects.toThrow(`--secure-port ${heldPort}: another process already uses that address and port`);
}, 90_000);
