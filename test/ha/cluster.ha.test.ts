/**
 * Several replicas on one etcd cluster, as scripts/cluster-up starts them (three etcd members, two
 * replicas sharing one PKI, the TCP balancer in front): writes through one replica are seen in order by the
 * other; an etcd member, a replica (kill -9) and a rolling restart cost no acknowledged write and no watch
 * event. The tests run in order on one cluster and leave it whole for the next.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  etcdPost,
  AdminClient,
  byRevision,
  clusterDown,
  clusterUp,
  exited,
  ResumingWatch,
  summary,
  until,
  Watch,
  Writer,
  type ClusterState,
} from './support/cluster';

jest.setTimeout(180_000);

const cm = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const names = (list: { items: Array<{ metadata: { name: string } }> }) => list.items.map((i) => i.metadata.name);

describe('two replicas behind the balancer on a three-member etcd cluster', () => {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'svc-ha-'));
  let state: ClusterState;
  let client: AdminClient;
  let A: number;
  let B: number;
  let LB: number;
  const open: Array<{ close(): void }> = [];

  beforeAll(async () => {
    state = await clusterUp(dir);
    client = new AdminClient(state.kubeconfig);
    [A, B] = state.replicas.map((r) => r.securePort);
    LB = state.balancer.port;
  });
  // A failed test leaves no watch behind to confuse the next one's counts.
  afterEach(() => open.splice(0).forEach((w) => w.close()));
  afterAll(() => {
    client?.close();
    clusterDown(dir);
  });

  test('writes through replica A are seen in order by watches and consistent lists on replica B', async () => {
    const base = '/api/v1/namespaces/ha-order/configmaps';
    const start = await client.request(B, 'GET', base);
    const watch = await Watch.open(client, B, `${base}?watch=1&resourceVersion=${start.json.metadata.resourceVersion}`);
    open.push(watch);
    const written: Array<[string, string, string | undefined]> = [];
    const listOnB = async () => {
      const r = await client.request(B, 'GET', base);
      expect(r.status).toBe(200);
      return r.json;
    };
    for (let i = 0; i < 8; i++) {
      const r = await client.request(A, 'POST', base, cm(`cm-${i}`, { v: '1' }));
      expect(r.status).toBe(201);
      written.push(['ADDED', `cm-${i}`, r.json.metadata.resourceVersion]);
      // A consistent list on B, right after A acknowledged, already holds the write.
      const list = await listOnB();
      expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(r.json.metadata.resourceVersion));
      expect(list.items.find((o: any) => o.metadata.name === `cm-${i}`)?.metadata.resourceVersion).toBe(r.json.metadata.resourceVersion);
    }
    for (let i = 0; i < 8; i += 2) {
      const current = (await client.request(A, 'GET', `${base}/cm-${i}`)).json;
      const r = await client.request(A, 'PUT', `${base}/cm-${i}`, { ...current, data: { v: '2' } });
      expect(r.status).toBe(200);
      written.push(['MODIFIED', `cm-${i}`, r.json.metadata.resourceVersion]);
      const list = await listOnB();
      expect(list.items.find((o: any) => o.metadata.name === `cm-${i}`)).toMatchObject({ data: { v: '2' }, metadata: { resourceVersion: r.json.metadata.resourceVersion } });
    }
    for (const i of [1, 4]) {
      const r = await client.request(A, 'DELETE', `${base}/cm-${i}`);
      expect(r.status).toBe(200);
      written.push(['DELETED', `cm-${i}`, undefined]);
      expect(names(await listOnB())).not.toContain(`cm-${i}`);
    }

    await until(`${written.length} events on B`, () => watch.events.length >= written.length, { onTimeout: () => `have ${watch.events.length}` });
    const seen = summary(watch.events);
    // A deletion's event carries the revision of the delete, which the DELETE response does not show.
    expect(seen.map(([type, name, rv], i) => [type, name, written[i]?.[2] && rv])).toEqual(written);
    const revisions = seen.map(([, , rv]) => Number(rv));
    expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
    expect(watch.ended).toBe(false);
    watch.close();
  });

  test('killing one etcd member (the leader) loses no acknowledged write and no watch event', async () => {
    const base = '/api/v1/namespaces/ha-etcd/configmaps';
    const rv = (await client.request(A, 'GET', base)).json.metadata.resourceVersion;
    const watches = await Promise.all([A, B].map((port) => Watch.open(client, port, `${base}?watch=1&resourceVersion=${rv}`)));
    open.push(...watches);

    const leader = await etcdLeader(state);
    const writer = new Writer(client, base);
    let stop = false;
    let n = 0;
    const load = (async () => {
      while (!stop) {
        await writer.create(n % 2 ? B : A, `cm-${n}`, { n: String(n) });
        n++;
      }
    })();
    try {
      await until('writes before the kill', () => writer.acked.length >= 10);
      process.kill(leader.pid, 'SIGKILL');
      await exited(leader.pid);
      const before = writer.acked.length;
      await until('writes after the kill', () => writer.acked.length >= before + 20, { timeoutMs: 60_000, onTimeout: () => `${writer.acked.length - before} acked` });
    } finally {
      stop = true;
      await load;
    }

    const expected = byRevision(writer.acked);
    for (const port of [A, B]) {
      const list = (await client.request(port, 'GET', base)).json;
      expect(list.items.map((o: any) => [o.metadata.name, o.metadata.resourceVersion])).toEqual(
        expect.arrayContaining(writer.acked.map((a) => [a.name, a.resourceVersion])),
      );
      expect(list.items).toHaveLength(writer.acked.length);
    }
    for (const w of watches) {
      await until(`${expected.length} watch events`, () => w.events.length >= expected.length, { onTimeout: () => `have ${w.events.length}` });
      expect(summary(w.events)).toEqual(expected);
      expect(w.ended).toBe(false);
      w.close();
    }

    state = await clusterUp(dir); // the member comes back and rejoins
    expect(state.members.find((m) => m.name === leader.name)!.pid).not.toBe(leader.pid);
  });

  test('kill -9 of a replica breaks only its own connections; an informer behind the balancer resumes from its last resourceVersion', async () => {
    const ns = 'ha-informer';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    for (const name of ['a', 'b']) expect((await client.request(LB, 'POST', base, cm(name, { v: '1' }))).status).toBe(201);

    const lines: any[] = [];
    let stderr = '';
    const informer: ChildProcess = spawn(
      process.execPath,
      [join(__dirname, '../e2e/informer-configmaps.mjs'), `https://127.0.0.1:${LB}`, ns, state.kubeconfig],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    open.push({ close: () => informer.kill('SIGKILL') });
    let buffered = '';
    informer.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const p of parts) lines.push(JSON.parse(p));
    });
    informer.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const seen = () => lines.filter((l) => ['add', 'update', 'delete'].includes(l.event));
    await until("the informer's initial adds", () => seen().length >= 2, { onTimeout: () => `${stderr}${JSON.stringify(lines)}` });

    // The replica that holds the informer's watch is the one to kill.
    const watchesOn = (port: number) => client.metric(port, 'apiserver_longrunning_requests', { verb: 'WATCH', resource: 'configmaps' });
    await until('the informer to watch', async () => (await watchesOn(A)) + (await watchesOn(B)) === 1);
    const [victim, survivor] = (await watchesOn(A)) === 1 ? [state.replicas[0], state.replicas[1]] : [state.replicas[1], state.replicas[0]];

    // Other clients: one watch straight on the survivor, four through the balancer (each its own connection).
    const rv = (await client.request(survivor.securePort, 'GET', base)).json.metadata.resourceVersion;
    const direct = await Watch.open(client, survivor.securePort, `${base}?watch=1&resourceVersion=${rv}`);
    const viaBalancer = await Promise.all([0, 1, 2, 3].map(() => Watch.open(client, LB, `${base}?watch=1&resourceVersion=${rv}`)));
    open.push(direct, ...viaBalancer);
    const onVictim = (await watchesOn(victim.securePort)) - 1;
    expect(onVictim).toBeGreaterThan(0); // round-robin put some of them there

    const expected: Array<[string, string, string]> = [];
    const write = async (method: string, name: string, data?: Record<string, string>) => {
      const path = method === 'POST' ? base : `${base}/${name}`;
      const body = method === 'PUT' ? { ...(await client.request(survivor.securePort, 'GET', path)).json, data } : method === 'POST' ? cm(name, data!) : undefined;
      const r = await client.request(survivor.securePort, method, path, body);
      expect(r.status).toBeLessThan(300);
      expected.push([method === 'POST' ? 'add' : method === 'PUT' ? 'update' : 'delete', name, r.json.metadata.resourceVersion]);
    };
    await write('POST', 'c', { v: '1' });
    await write('PUT', 'a', { v: '2' });
    await until('events before the kill', () => seen().length >= 4 && viaBalancer.every((w) => w.events.length >= 2));

    process.kill(victim.pid, 'SIGKILL');
    await exited(victim.pid);
    await write('DELETE', 'b');
    await write('POST', 'd', { v: '1' });
    await write('PUT', 'c', { v: '3' });
    await until('the informer to catch up', () => seen().length >= 7, { onTimeout: () => `${JSON.stringify(lines)} ${stderr}` });

    // Every change once, in order; the only list is the first: it resumed from its last resourceVersion.
    expect(seen().map((l) => [l.event, l.name])).toEqual([['add', 'a'], ['add', 'b'], ...expected.map(([e, name]) => [e, name])]);
    expect(seen().slice(2).filter((l) => l.event !== 'delete').map((l) => l.rv)).toEqual(expected.filter(([e]) => e !== 'delete').map(([, , rv]) => rv));
    expect(lines.filter((l) => l.event === 'list')).toHaveLength(1);
    expect(lines.filter((l) => l.event === 'connect').length).toBeGreaterThanOrEqual(2);

    // Connections to the survivor, direct or through the balancer, went on; those to the victim ended.
    await until('the direct watch', () => direct.events.length >= 5);
    expect(direct.ended).toBe(false);
    expect(summary(direct.events).map(([t, name]) => [t, name])).toEqual([['ADDED', 'c'], ['MODIFIED', 'a'], ['DELETED', 'b'], ['ADDED', 'd'], ['MODIFIED', 'c']]);
    await until('the victim’s connections to end', () => viaBalancer.filter((w) => w.ended).length === onVictim);
    for (const w of viaBalancer.filter((x) => !x.ended)) await until('a watch through the balancer', () => w.events.length >= 5);
    expect(viaBalancer.filter((w) => !w.ended).length).toBe(4 - onVictim);
    for (const w of [direct, ...viaBalancer]) w.close();
    informer.kill('SIGTERM');

    state = await clusterUp(dir);
    expect(state.replicas.find((r) => r.name === victim.name)!.pid).not.toBe(victim.pid);
  });

  test('a rolling restart of both replicas under a steady write load loses nothing', async () => {
    const base = '/api/v1/namespaces/ha-rolling/configmaps';
    const rv = (await client.request(LB, 'GET', base)).json.metadata.resourceVersion;
    const follower = new ResumingWatch(client, LB, base, rv);
    open.push({ close: () => void follower.stop() });
    const writer = new Writer(client, base);
    let stop = false;
    const loop = async (id: number) => {
      for (let i = 0; !stop; i++) {
        await writer.create(LB, `w${id}-${i}`, { v: '1' });
        await writer.update(LB, `w${id}-${i}`, { v: '2' });
      }
    };
    const load = Promise.all([loop(0), loop(1)]);
    try {
      for (const replica of state.replicas) {
        const before = writer.acked.length;
        await until('writes before the restart', () => writer.acked.length >= before + 10);
        process.kill(replica.pid, 'SIGTERM');
        await exited(replica.pid);
        state = await clusterUp(dir);
      }
      const before = writer.acked.length;
      await until('writes after the restarts', () => writer.acked.length >= before + 10);
    } finally {
      stop = true;
      await load;
    }

    // Each object's last acknowledged write is what both replicas list.
    const last = new Map(writer.acked.map((a) => [a.name, a]));
    for (const port of [A, B]) {
      const list = (await client.request(port, 'GET', base)).json;
      expect(list.items.map((o: any) => [o.metadata.name, o.metadata.resourceVersion, o.data])).toEqual(
        [...last.values()].sort((x, y) => (x.name < y.name ? -1 : 1)).map((a) => [a.name, a.resourceVersion, a.data]),
      );
    }
    // The watch through the balancer, resumed after each restart, saw every write once and in order.
    const expected = byRevision(writer.acked);
    await until(`${expected.length} events`, () => follower.events.length >= expected.length, { onTimeout: () => `have ${follower.events.length}` });
    await follower.stop();
    expect(follower.error).toBeUndefined();
    expect(summary(follower.events)).toEqual(expected);
    expect(follower.connections).toBeGreaterThanOrEqual(2);
  });
});

/** The member etcd reports as leader (maintenance status over etcd's JSON gateway, with the cluster's etcd client certificate). */
async function etcdLeader(state: ClusterState): Promise<ClusterState['members'][number]> {
  for (const m of state.members) {
    const status = JSON.parse(await etcdPost(state, m, '/v3/maintenance/status', {})) as { leader: string; header: { member_id: string } };
    if (status.leader === status.header.member_id) return m;
  }
  throw new Error('no etcd member says it is the leader');
}
