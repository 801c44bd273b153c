/**
 * Both ports create each request and response with the Express app's prototypes, so Express's own
 * setPrototypeOf on every request changes nothing (changing the prototype of live objects cost each request
 * about a fifth of the server's CPU per create). Express's helpers still work: query, status, client certificates.
 * And they are objects V8 keeps in fast mode (a response built by a plain function calling node's constructor was a
 * dictionary: ten times the cost to build, and every field read a hash lookup).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v8 from 'node:v8';
import { startSecureTestServer, SecureTestServer } from '../support/secure-server';

v8.setFlagsFromString('--allow-natives-syntax');
const fastMode = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

describe('requests and responses are born with the app prototypes', () => {
  let s: SecureTestServer;
  const seen: string[] = [];
  const fast: string[] = [];
  beforeAll(async () => {
    s = await startSecureTestServer('lmdb');
    for (const [port, server] of [['plain', s.assembled.server], ['secure', s.assembled.secureServer!]] as const) {
      // Runs before the app's own listener, so it sees the objects as node made them.
      server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
        const app = (s.assembled.server.listeners('request').at(-1) as unknown as { request: object; response: object });
        seen.push(`${port} ${Object.getPrototypeOf(req) === app.request} ${Object.getPrototypeOf(res) === app.response}`);
        fast.push(`${port} ${fastMode(req)} ${fastMode(res)}`);
      });
    }
  });
  afterAll(() => s.close());

  test('on the plain and the secure port, and Express helpers still answer', async () => {
    const plain = await fetch(`${s.plainUrl}/api/v1/namespaces/default/configmaps?limit=1`);
    expect(plain.status).toBe(200);
    expect(((await plain.json()) as { kind: string }).kind).toBe('ConfigMapList');
    const admin = await s.clientCert('proto-admin', ['system:masters']);
    const secure = await s.call('GET', '/api/v1/namespaces/default/configmaps?limit=1', admin);
    expect(secure.status).toBe(200);
    expect(secure.json.kind).toBe('ConfigMapList');
    const denied = await s.call('GET', '/api/v1/namespaces/default/configmaps', await s.clientCert('nobody'));
    expect(denied.status).toBe(403);
    expect(seen).toEqual(['plain true true', 'secure true true', 'secure true true']);
    expect(fast).toEqual(['plain true true', 'secure true true', 'secure true true']);
  });
});
