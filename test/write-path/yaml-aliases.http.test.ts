/**
 * A YAML body of a few hundred bytes whose aliases stand for 387 million nodes used to keep the server busy (and
 * growing by gigabytes) for as long as anyone waited; an anchor that contains itself made a cycle. Both are now a 400
 * with go-yaml's words, as a create and as a server-side apply, and the server goes on answering.
 */
import { laughs } from '../support/yaml-bombs';
import { apply, CacheServer, cmPath, send, startWriteServer } from './write-helpers';

const bomb = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels:\n${laughs(9, 9, '    ')}`;

describe('YAML aliases (lmdb)', () => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer('lmdb');
  });
  afterAll(async () => {
    await s.close();
  });

  test('a billion laughs is refused, as a create and as an apply, and nothing is stored', async () => {
    const created = await send(s, 'POST', cmPath(), bomb('laughs'), 'application/yaml');
    expect([created.status, created.json?.reason, created.json?.message]).toEqual([400, 'BadRequest', 'error decoding YAML: yaml: document contains excessive aliasing']);
    const applied = await apply(s, `${cmPath()}/laughs`, bomb('laughs'), 'fieldManager=x');
    expect([applied.status, applied.json?.message]).toEqual([400, 'error decoding YAML: yaml: document contains excessive aliasing']);
    expect((await send(s, 'GET', `${cmPath()}/laughs`)).status).toBe(404);
  }, 20_000);

  test('an anchor that contains itself is a 400, not a failure of the server', async () => {
    const r = await apply(s, `${cmPath()}/loop`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: loop\n  labels: &l {a: *l}\n', 'fieldManager=x');
    expect([r.status, r.json?.message]).toEqual([400, "error decoding YAML: yaml: anchor 'l' value contains itself"]);
  });

  test('ordinary aliases still work', async () => {
    const r = await send(s, 'POST', cmPath(), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aliased\n  labels: &l {a: b}\n  annotations: *l\n', 'application/yaml');
    expect(r.status).toBe(201);
    expect(r.json.metadata).toMatchObject({ labels: { a: 'b' }, annotations: { a: 'b' } });
  });
});
