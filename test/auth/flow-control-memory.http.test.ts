/**
 * Requests that wait for a flow-control seat must not outlive their response. The Set of wait deadlines left old
 * tables behind (minor collections still read them while they are garbage in the old generation), and they kept each
 * waiting request's callback, and so the request and its response, alive until a major collection: under load over
 * HTTPS most of every request was promoted, and scavenges took about ten times longer.
 */
import { Agent, request } from 'node:https';
import { startSecureTestServer, SecureTestServer, Credentials } from '../support/secure-server';
import { promotedBytes } from '../support/promoted-bytes';

describe('requests waiting for a seat', () => {
  let s: SecureTestServer;
  let reader: Credentials;
  beforeAll(async () => {
    s = await startSecureTestServer('lmdb', { limits: { readOnly: 400, mutating: 200, seats: 2 } });
    const admin = await s.clientCert('system:admin', ['system:masters']);
    await s.call('POST', '/apis/rbac.authorization.svc.io/v1/clusterrolebindings', admin, {
      metadata: { name: 'reader' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'reader' }],
    });
    expect((await s.call('POST', '/api/v1/namespaces/default/configmaps', admin, { metadata: { name: 'target' }, data: { k: 'v' } })).status).toBe(201);
    reader = await s.clientCert('reader');
  });
  afterAll(() => s.close());

  it('leave nothing of themselves for minor collections once answered', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8, ca: s.pki.ca.certPem, cert: reader.cert, key: reader.key });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${s.url}/api/v1/namespaces/default/configmaps/target?resourceVersion=0`, { agent }, (res) => res.resume().on('end', () => resolve(res.statusCode!)));
        req.on('error', reject).end();
      });
    const requests = 3000;
    await Promise.all(Array.from({ length: 8 }, get)); // connections up before the count
    let sent = 0;
    const statuses = new Set<number>();
    // Server-side requests and responses are made in parserOnIncoming (the client's in parserOnIncomingClient).
    const bytes = await promotedBytes('parserOnIncoming', async (minorGc) => {
      // Eight clients over two seats: six requests wait at any time.
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (sent < requests) {
            if (++sent % 200 === 0) minorGc();
            statuses.add(await get());
          }
        }),
      );
    });
    agent.destroy();
    expect([...statuses]).toEqual([200]);
    // About 3.8 KB per request before the fix and 1.2-1.4 KB after, in this process, where the clients, their TLS and
    // the harness share the heap with the server (the server alone, in its own process: 6.3 KB before, 0.3 after).
    expect(bytes / requests).toBeLessThan(2500);
  });
});
