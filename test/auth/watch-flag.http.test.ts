/**
 * One reading of `watch` for every part of the request path: the authorizer, the handler and the metrics agree on
 * whether a GET of a collection is a list or a watch, by upstream's boolean rule (present means true unless the first
 * value is 0, f, false, n or no). A user allowed only to list must never get a watch stream.
 */
import { request } from 'node:https';
import { backends } from '../support/test-server';
import { startSecureTestServer, SecureTestServer, Credentials } from '../support/secure-server';
import { createRbac } from '../support/rbac-grant';
import { until } from '../support/until';

const rbac = '/apis/rbac.authorization.svc.io/v1';
const collection = '/api/v1/namespaces/team/configmaps';

/** Each query, and whether upstream reads it as a watch. */
const table: Array<[query: string, watch: boolean]> = [
  ['?watch', true],
  ['?watch=', true],
  ['?watch=yes', true],
  ['?watch=True', true],
  ['?watch=1', true],
  ['?watch=0', false],
  ['?watch=no', false],
  ['?watch=false', false],
];

interface Opened {
  status: number;
  contentType: string;
  /** The first chunk of the body (a watch never ends: the request is aborted after it). */
  first: string;
}

/** A GET that reads only the first chunk of the body, so that a watch can be told from a list. */
function open(s: SecureTestServer, path: string, creds: Credentials): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}${path}`, { headers: { Accept: 'application/json' }, ca: s.pki.ca.certPem, cert: creds.cert, key: creds.key }, (res) => {
      res.setEncoding('utf8');
      res.once('data', (first: string) => {
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']), first });
        req.destroy();
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']), first: '' }));
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    req.end();
  });
}

describe.each(backends)('the watch flag read once (%s)', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  let lister: Credentials;
  let watcher: Credentials;
  let nobody: Credentials;
  beforeAll(async () => {
    s = await startSecureTestServer(backend);
    admin = await s.clientCert('system:admin', ['system:masters']);
    lister = await s.clientCert('lister');
    watcher = await s.clientCert('watcher');
    nobody = await s.clientCert('nobody');
    const role = (name: string, verbs: string[]) => ({ metadata: { name }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }] });
    const bind = (name: string, user: string) => ({
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: user }],
    });
    await createRbac(s, admin, `${rbac}/namespaces/team/roles`, role('list-only', ['list']));
    await createRbac(s, admin, `${rbac}/namespaces/team/roles`, role('list-watch', ['list', 'watch']));
    await createRbac(s, admin, `${rbac}/namespaces/team/rolebindings`, bind('list-only', 'lister'));
    await createRbac(s, admin, `${rbac}/namespaces/team/rolebindings`, bind('list-watch', 'watcher'));
    const created = await s.call('POST', collection, admin, { metadata: { name: 'c1' } });
    expect(created.status).toBe(201);
  });
  afterAll(() => s.close());

  it.each(table)('%s: the authorizer checks the verb the handler serves', async (query, watch) => {
    // What the authorizer checked: a user with no permission is told which verb was refused.
    const refused = await s.call('GET', `${collection}${query}`, nobody);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain(`cannot ${watch ? 'watch' : 'list'} resource "configmaps"`);
    expect(refused.json.details).toEqual({ kind: 'configmaps' });

    // A list-only user gets a list, and never a watch stream.
    const listed = await open(s, `${collection}${query}`, lister);
    if (watch) expect(listed.status).toBe(403);
    else expect([listed.status, JSON.parse(listed.first).kind]).toEqual([200, 'ConfigMapList']);

    // What the handler served to a user who may do both.
    const served = await open(s, `${collection}${query}`, watcher);
    expect(served.status).toBe(200);
    if (watch) expect(JSON.parse(served.first.split('\n')[0])).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'c1' } } });
    else expect(JSON.parse(served.first).kind).toBe('ConfigMapList');
  });

  it('counts each request under the verb it was served as', async () => {
    const scrape = async () => {
      const text = await (await fetch(`${s.plainUrl}/metrics`)).text();
      const count = (verb: string) =>
        text
          .split('\n')
          .filter((l) => l.startsWith('apiserver_request_total{') && l.includes(`verb="${verb}"`) && l.includes('resource="configmaps"') && l.includes('scope="namespace"'))
          .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
      return { watch: count('WATCH'), list: count('LIST') };
    };
    const before = await scrape();
    for (const [query] of table) await open(s, `${collection}${query}`, watcher);
    // A watch is counted when its stream ends: wait until every one of them has been.
    const watches = table.filter(([, w]) => w).length;
    const after = await until('every watch to be counted', async () => {
      const now = await scrape();
      return now.watch - before.watch >= watches && now;
    });
    expect(after.watch - before.watch).toBe(watches);
    expect(after.list - before.list).toBe(table.length - watches);
  });

  it('holds an open watch among the long-running requests, not the ones in flight', async () => {
    const controller = new AbortController();
    const w = await fetch(`${s.plainUrl}${collection}?watch=True`, { signal: controller.signal });
    try {
      const text = await (await fetch(`${s.plainUrl}/metrics`)).text();
      expect(text).toMatch(/^apiserver_longrunning_requests\{verb="WATCH",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver"\} 1$/m);
      // Only the /metrics request itself is in flight.
      expect(text).toMatch(/^apiserver_current_inflight_requests\{request_kind="readOnly"\} 1$/m);
    } finally {
      controller.abort();
      await w.body?.cancel().catch(() => undefined);
    }
  });
});
