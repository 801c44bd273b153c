/**
 * One generic tester for every served kind: the same create / get / list /
 * replace / patch / status / delete-collection / delete sequence, fed by a
 * small fixture per kind, against both storage backends.
 */
import { apiVersionOf } from '../../src/machinery/resource-definition';
import { resourcePaths } from '../../src/adapters/http/routes';
import { allDefinitions } from '../../src/resources';
import { backends, startTestServer, TestServer } from '../support/test-server';
import { until } from '../support/until';
import type { KindFixture } from './fixture';
import { loadFixtures } from './load-fixtures';

const fixtures: KindFixture[] = loadFixtures();

const ns = 'conformance';

async function call(s: TestServer, method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  // The Status message of a failure (an Event has a message of its own).
  return { status: res.status, json, error: json?.kind === 'Status' ? json.message : undefined };
}

/** Waits (bounded) until GET answers 404. */
async function gone(s: TestServer, path: string): Promise<void> {
  await until(`GET ${path} to answer 404`, async () => (await call(s, 'GET', path)).status === 404, { intervalMs: 100 });
}

function paths(f: KindFixture) {
  const p = resourcePaths(f.definition);
  const collection = p.collection.replace(':namespace', ns);
  // Lists and delete-collection see only the fixture's objects where the server adds its own.
  const only = f.selector ? `?labelSelector=${encodeURIComponent(f.selector)}` : '';
  return { collection, mine: `${collection}${only}`, item: (name: string) => `${collection}/${name}`, all: p.allNamespaces && `${p.allNamespaces}${only}` };
}

test('every served kind has a conformance fixture', () => {
  const kinds = fixtures.map((f) => f.definition.kind).sort();
  expect(kinds).toEqual(allDefinitions.map((d) => d.kind).sort());
});

describe.each(backends)('conformance (%s)', (backend) => {
  describe.each(fixtures.map((f) => [f.definition.kind, f] as const))('%s', (_kind, f) => {
    let s: TestServer;
    const def = f.definition;
    beforeAll(async () => {
      s = await startTestServer(backend, f.gates ?? {});
    });
    afterAll(async () => {
      await s.close();
    });

    test('create, get, list, replace, patch, status, delete', async () => {
      const p = paths(f);
      const valid = await f.valid();
      const name = (valid.metadata as { name: string }).name;
      const created = await call(s, 'POST', p.collection, valid);
      expect([created.status, created.error]).toEqual([201, undefined]);
      expect(created.json).toMatchObject({ kind: def.kind, apiVersion: apiVersionOf(def), metadata: { name } });
      if (def.namespaced) expect(created.json.metadata.namespace).toBe(ns);
      expect(created.json.metadata.generation).toBe(def.usesGeneration ? 1 : undefined);

      const settled = f.settled;
      const reference = settled
        ? await until(`${def.kind} to settle`, async () => {
            const r = await call(s, 'GET', p.item(name));
            return settled(r.json) ? r.json : undefined;
          })
        : created.json;
      const got = await call(s, 'GET', p.item(name));
      expect(got.json).toEqual(reference);

      const list = await call(s, 'GET', p.mine);
      expect(list.json.kind).toBe(def.listKind);
      expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([name]);
      if (p.all) expect((await call(s, 'GET', p.all)).json.items).toHaveLength(1);

      const updated = structuredClone(got.json);
      f.update(updated);
      const replaced = await call(s, 'PUT', p.item(name), updated);
      expect([replaced.status, replaced.error]).toEqual([200, undefined]);
      expect(Number(replaced.json.metadata.resourceVersion)).toBeGreaterThan(Number(created.json.metadata.resourceVersion));

      const patched = await call(s, 'PATCH', p.item(name), f.mergePatch, 'application/merge-patch+json');
      expect([patched.status, patched.error]).toEqual([200, undefined]);

      if (f.status && def.subresources.status) {
        const current = (await call(s, 'GET', p.item(name))).json;
        const withStatus = { ...current, status: await f.status(current) };
        const st = await call(s, 'PUT', `${p.item(name)}/status`, withStatus);
        expect([st.status, st.error]).toEqual([200, undefined]);
        expect(st.json.status).toMatchObject(withStatus.status);
        // Main-resource writes never change status.
        const viaMain = await call(s, 'PUT', p.item(name), { ...st.json, status: {} });
        expect(viaMain.json.status).toEqual(st.json.status);
        expect((await call(s, 'GET', `${p.item(name)}/status`)).json.status).toEqual(st.json.status);
      }

      const second = f.second ? f.second() : await f.valid();
      if (!f.second) (second.metadata as { name: string }).name = `${name}-two`.slice(0, 60);
      const secondName = (second.metadata as { name: string }).name;
      expect((await call(s, 'POST', p.collection, second)).status).toBe(201);
      if (def.deleteCollection === false) {
        expect((await call(s, 'DELETE', p.collection)).status).toBe(405);
        for (const n of [name, secondName]) expect((await call(s, 'DELETE', p.item(n))).status).toBe(200);
        await gone(s, p.item(secondName));
      } else {
        const dc = await call(s, 'DELETE', p.mine);
        expect(dc.status).toBe(200);
        expect(dc.json.kind).toBe(def.listKind);
        expect(dc.json.items).toHaveLength(2);
        // A kind that holds its own deletion (a CRD until its objects are gone) leaves the list a moment later.
        if (def.strategy.deletion) await until('the collection to be empty', async () => (await call(s, 'GET', p.mine)).json.items.length === 0, { intervalMs: 100 });
        else expect((await call(s, 'GET', p.mine)).json.items).toHaveLength(0);
      }
      await gone(s, p.item(name));

      expect((await call(s, 'POST', p.collection, await f.valid())).status).toBe(201);
      const del = await call(s, 'DELETE', p.item(name));
      expect(del.status).toBe(200);
      // Kinds that finalize themselves (namespaces) go once their controller is done.
      await gone(s, p.item(name));
    });

    test.each(f.invalid.map((c) => [c.title, c] as const))('rejects %s', async (_title, c) => {
      const res = await call(s, 'POST', paths(f).collection, c.object);
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { kind: def.kind } });
      expect(res.json.details.causes).toEqual(expect.arrayContaining([expect.objectContaining({ field: c.field, reason: c.reason })]));
    });
  });
});
