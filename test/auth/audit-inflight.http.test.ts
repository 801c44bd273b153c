/** Audit events for every request (default policy: Metadata) and 429 past the in-flight limits. */
import { request } from 'node:https';
import { randomUUID } from 'node:crypto';
import { startSecureTestServer, SecureTestServer, Credentials } from '../support/secure-server';
import { defaultPolicy, parsePolicy } from '../../src/auth/audit/policy';
import type { AuditSinkPort } from '../../src/ports/audit.port';
import { until } from '../support/until';
import { WatchClient } from '../watch/harness';
import { KUBECTL_BODIES } from '../unit/protobuf/kubectl-bodies';

class MemorySink implements AuditSinkPort {
  lines: string[] = [];
  async write(lines: string[]) {
    this.lines.push(...lines);
  }
  async close() {}
  events() {
    return this.lines.map((l) => JSON.parse(l));
  }
}

describe('audit', () => {
  let s: SecureTestServer;
  let admin: Credentials;
  const sink = new MemorySink();
  beforeAll(async () => {
    s = await startSecureTestServer('lmdb', { audit: { policy: defaultPolicy, sink }, newId: randomUUID });
    admin = await s.clientCert('system:admin', ['system:masters']);
  });
  afterAll(() => s.close());

  it('records Metadata events in upstream shape, at RequestReceived and ResponseComplete', async () => {
    const created = await s.call('POST', '/api/v1/namespaces/audit/configmaps', { ...admin, headers: { 'User-Agent': 'audit-test/1.0' } }, { metadata: { name: 'a1' } });
    expect(created.status).toBe(201);
    const id = created.headers['audit-id'];
    const events = sink.events().filter((e) => e.auditID === id);
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(events[1]).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.svc.io/v1',
      level: 'Metadata',
      verb: 'create',
      requestURI: '/api/v1/namespaces/audit/configmaps',
      user: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      userAgent: 'audit-test/1.0',
      objectRef: { resource: 'configmaps', namespace: 'audit', apiGroup: '', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
    });
    expect(events[1].requestObject).toBeUndefined();
    expect(events[1].stageTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('a denied, impersonated request records both users and the Status', async () => {
    const bob = await s.call('GET', '/api/v1/namespaces/audit/configmaps/a1', { ...admin, headers: { 'Impersonate-User': 'bob' } });
    expect(bob.status).toBe(403);
    const done = sink.events().find((e) => e.auditID === bob.headers['audit-id'] && e.stage === 'ResponseComplete');
    expect(done).toMatchObject({
      verb: 'get',
      user: { username: 'system:admin' },
      impersonatedUser: { username: 'bob', groups: ['system:authenticated'] },
      objectRef: { resource: 'configmaps', namespace: 'audit', name: 'a1' },
      responseStatus: { code: 403, status: 'Failure', reason: 'Forbidden' },
    });
    expect(done.responseStatus.message).toContain('User "bob" cannot get resource "configmaps"');
  });
});

describe('audit with a RequestResponse policy', () => {
  let s: SecureTestServer;
  let admin: Credentials;
  const sink = new MemorySink();
  beforeAll(async () => {
    const policy = parsePolicy({ kind: 'Policy', omitStages: ['RequestReceived'], rules: [{ level: 'None', nonResourceURLs: ['/readyz'] }, { level: 'RequestResponse', resources: [{ group: '', resources: ['configmaps'] }] }] });
    s = await startSecureTestServer('lmdb', { audit: { policy, sink }, newId: randomUUID });
    admin = await s.clientCert('system:admin', ['system:masters']);
  });
  afterAll(() => s.close());

  it('records request and response objects, and nothing for what the policy skips', async () => {
    const created = await s.call('POST', '/api/v1/namespaces/rr/configmaps', admin, { metadata: { name: 'body' }, data: { k: 'v' } });
    await s.call('GET', '/readyz', admin);
    const events = sink.events();
    expect(events.every((e) => e.stage === 'ResponseComplete')).toBe(true);
    const e = events.find((x) => x.auditID === created.headers['audit-id']);
    expect(e.requestObject).toEqual({ metadata: { name: 'body' }, data: { k: 'v' } });
    expect(e.responseObject).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'body' }, data: { k: 'v' } });
    expect(events.some((x) => x.requestURI === '/readyz')).toBe(false);
  });

  const completed = (id: unknown) => sink.events().find((x) => x.auditID === id && x.stage === 'ResponseComplete');

  it('records the object the handler decoded, without parsing the body again', async () => {
    const body = JSON.stringify({ metadata: { name: 'once' }, data: { k: 'v' } });
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const created = await s.call('POST', '/api/v1/namespaces/rr/configmaps', admin, body);
      expect(created.status).toBe(201);
      expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1);
      expect(completed(created.headers['audit-id']).requestObject).toEqual(JSON.parse(body));
    } finally {
      parse.mockRestore();
    }
  });

  it('records YAML and protobuf bodies as decoded, and as sent: not as the registry then changed them', async () => {
    const yamlBody = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n';
    const fromYaml = await s.call('POST', '/api/v1/namespaces/rr/configmaps', admin, yamlBody, 'application/yaml');
    expect(fromYaml.status).toBe(201);
    expect(completed(fromYaml.headers['audit-id']).requestObject).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-yaml' }, data: { k: 'v' } });
    const protobuf = Buffer.from(KUBECTL_BODIES.configMap, 'base64'); // kubectl create configmap demo --from-literal=a=b
    const fromProtobuf = await s.call('POST', '/api/v1/namespaces/rr/configmaps', admin, protobuf, 'application/vnd.kubernetes.protobuf');
    expect(fromProtobuf.status).toBe(201);
    expect(completed(fromProtobuf.headers['audit-id']).requestObject).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo' }, data: { a: 'b' } });
    // The registry prunes the unknown field from the decoded object; the record keeps what the client sent.
    const unknown = await s.call('POST', '/api/v1/namespaces/rr/configmaps', admin, { metadata: { name: 'pruned' }, data: {}, extra: 1 });
    expect(unknown.status).toBe(201);
    expect(completed(unknown.headers['audit-id']).requestObject).toEqual({ metadata: { name: 'pruned' }, data: {}, extra: 1 });
  });

  it('records no request object for a body no handler decoded (a denied request), as upstream', async () => {
    const nobody = await s.clientCert('nobody');
    const denied = await s.call('POST', '/api/v1/namespaces/rr/configmaps', nobody, { metadata: { name: 'denied' } });
    expect(denied.status).toBe(403);
    const e = completed(denied.headers['audit-id']);
    expect(e.responseStatus).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(e.requestObject).toBeUndefined();
  });
});

describe('max in-flight requests', () => {
  let s: SecureTestServer;
  let bob: Credentials;
  beforeAll(async () => {
    s = await startSecureTestServer('lmdb', { limits: { readOnly: 1, mutating: 1 } });
    const admin = await s.clientCert('system:admin', ['system:masters']);
    await s.call('POST', '/apis/rbac.authorization.svc.io/v1/clusterrolebindings', admin, {
      metadata: { name: 'bob-edit' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'bob' }],
    });
    bob = await s.clientCert('bob');
  });
  afterAll(() => s.close());

  /** Starts a request whose body is still on its way: it holds an in-flight slot until finish() sends the rest. */
  function heldRequest(method: string, path: string, creds: Credentials) {
    const body = JSON.stringify({ metadata: { name: 'held' } });
    const req = request(`${s.url}${path}`, { method, ca: s.pki.ca.certPem, cert: creds.cert, key: creds.key, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } });
    const status = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, 5));
    req.flushHeaders();
    return { finish: () => req.end(body.slice(5)), status };
  }

  it('answers 429 with Retry-After past --max-mutating-requests-inflight; reads still pass', async () => {
    const held = heldRequest('POST', '/api/v1/namespaces/flood/configmaps', bob);
    let rejected: Awaited<ReturnType<SecureTestServer['call']>> | undefined;
    await until('a second write to be refused', async () => {
      rejected = await s.call('POST', '/api/v1/namespaces/flood/configmaps', bob, { metadata: { name: 'second' } });
      return rejected.status === 429;
    });
    expect(rejected!.status).toBe(429);
    expect(rejected!.headers['retry-after']).toBe('1');
    expect(rejected!.json).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429, message: 'Too many requests, please try again later.', details: { retryAfterSeconds: 1 } });
    expect((await s.call('GET', '/api/v1/namespaces/flood/configmaps', bob)).status).toBe(200);
    // system:masters is not limited, as upstream.
    const admin = await s.clientCert('system:admin', ['system:masters']);
    expect((await s.call('POST', '/api/v1/namespaces/flood/configmaps', admin, { metadata: { name: 'admin' } })).status).toBe(201);
    held.finish();
    expect(await held.status).toBe(201);
    expect((await s.call('POST', '/api/v1/namespaces/flood/configmaps', bob, { metadata: { name: 'after' } })).status).toBe(201);
  });

  it('watches are long-running and not counted', async () => {
    const watch = request(`${s.url}/api/v1/namespaces/flood/configmaps?watch=true`, { ca: s.pki.ca.certPem, cert: bob.cert, key: bob.key });
    const opened = new Promise<number>((resolve) => watch.on('response', (res) => resolve(res.statusCode ?? 0)));
    watch.end();
    expect(await opened).toBe(200);
    const held = heldRequest('GET', '/api/v1/namespaces/flood/configmaps', bob);
    let second = 0;
    await until('a second read to be refused', async () => (second = (await s.call('GET', '/api/v1/namespaces/flood/configmaps', bob)).status) === 429);
    expect(second).toBe(429);
    held.finish();
    expect(await held.status).toBe(200);
    watch.destroy();
  });
});

describe('fair queuing between users (upstream API Priority and Fairness, one level)', () => {
  let s: SecureTestServer;
  let admin: Credentials;
  let storm: Credentials;
  let quiet: Credentials;
  // The audit's RequestReceived stage is written as a request passes into max-in-flight (upstream's filter order:
  // audit, then max-in-flight): the tests read from it that a request holds its seat or waits in its queue.
  const sink = new MemorySink();
  beforeAll(async () => {
    s = await startSecureTestServer('lmdb', { limits: { readOnly: 100, mutating: 100, seats: 1 }, audit: { policy: defaultPolicy, sink } });
    admin = await s.clientCert('system:admin', ['system:masters']);
    await s.call('POST', '/apis/rbac.authorization.svc.io/v1/clusterrolebindings', admin, {
      metadata: { name: 'storm-and-quiet' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: ['storm', 'quiet'].map((name) => ({ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name })),
    });
    storm = await s.clientCert('storm');
    quiet = await s.clientCert('quiet');
  });
  afterAll(() => s.close());

  it("a user's request waits behind at most one request of a busier user, not its whole backlog", async () => {
    /** Each request names itself in its User-Agent; received once the audit has its RequestReceived stage. */
    const received = (who: string) => until(`${who} to be received`, () => sink.events().some((e) => e.userAgent === who && e.stage === 'RequestReceived'));
    const list = await s.call('GET', '/api/v1/namespaces/fair/configmaps', admin);
    // Over the plain port, as system:admin: a watch is long-running and takes no seat.
    const watch = await WatchClient.open(s.plainUrl, `/api/v1/namespaces/fair/configmaps?watch=1&resourceVersion=${list.json.metadata.resourceVersion}`);
    const body = JSON.stringify({ metadata: { name: 'held' } });
    const held = request(`${s.url}/api/v1/namespaces/fair/configmaps`, { method: 'POST', ca: s.pki.ca.certPem, cert: storm.cert, key: storm.key, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'held' } });
    held.on('error', () => undefined); // the assertions below report a failure; a reset socket must not crash the run
    const heldDone = new Promise<void>((resolve) => held.on('response', (res) => res.resume().on('end', resolve)));
    held.write(body.slice(0, 5));
    held.flushHeaders();
    await received('held'); // nobody waited and the seat was free: it holds the seat until its body is complete
    const finished: string[] = [];
    const send = (who: string, creds: Credentials) =>
      s.call('POST', '/api/v1/namespaces/fair/configmaps', { ...creds, headers: { 'User-Agent': who } }, { metadata: { name: who } }).then((r) => {
        expect(r.status).toBe(201);
        finished.push(who);
      });
    const backlog = [send('storm-1', storm), send('storm-2', storm), send('storm-3', storm)];
    for (const who of ['storm-1', 'storm-2', 'storm-3']) await received(who);
    const mine = send('quiet-1', quiet);
    await received('quiet-1');
    // Nothing ran while the seat was held. Barrier: a create by system:admin (exempt, it takes no seat), which the
    // watch must deliver; it delivers in revision order, so a create by any waiting request would come before it.
    const sentinel = await s.call('POST', '/api/v1/namespaces/fair/configmaps', admin, { metadata: { name: 'sentinel' } });
    expect(sentinel.status).toBe(201);
    const seen = await watch.through(sentinel.json.metadata.resourceVersion);
    expect(seen.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED sentinel']);
    expect(finished).toEqual([]);
    watch.close();
    held.end(body.slice(5));
    await Promise.all([heldDone, mine, ...backlog]);
    // First in line is whichever storm request queued first; the quiet user comes right after it.
    expect(finished[1]).toBe('quiet-1');
    expect([...finished].sort()).toEqual(['quiet-1', 'storm-1', 'storm-2', 'storm-3']);
  });
});
