/**
 * The audited registry face the controllers get: each write is one audit
 * event in the shape of the HTTP request that would have made it (path,
 * verb, objectRef, what was sent), failures with their Status, and reads
 * go through unaudited. The trail is the real one; the registry a stub.
 */
import { auditedClient } from '../../../src/controllers/audited-client';
import { AuditTrail } from '../../../src/auth/audit/trail';
import { BufferedAuditBackend } from '../../../src/auth/audit/buffered';
import { parsePolicy } from '../../../src/auth/audit/policy';
import { errors } from '../../../src/machinery/status';
import { configMapDefinition } from '../../../src/resources/config-map';
import { namespaceDefinition } from '../../../src/resources/namespace';
import { controllerDelete, controllerWrite, serviceAccountUser } from '../../../src/controllers/controller-identity';
import type { RegistryClient } from '../../../src/controllers/registry-client';
import { ObjectResult } from '../../../src/registry/results';

const user = serviceAccountUser('namespace-controller');
const write = controllerWrite(user, 'v1');

function setup() {
  const lines: string[] = [];
  const backend = new BufferedAuditBackend({ write: async (l) => void lines.push(...l), close: async () => undefined });
  const trail = new AuditTrail(parsePolicy({ kind: 'Policy', omitStages: ['RequestReceived'], rules: [{ level: 'Request' }] }), backend, { now: () => new Date('2026-01-01T00:00:00Z') });
  const calls: string[] = [];
  const registry = {
    definitions: [configMapDefinition, namespaceDefinition],
    get: async () => (calls.push('get'), { metadata: { name: 'x' } }),
    list: async () => (calls.push('list'), { items: [] }),
    create: async (_d: unknown, _ns: string, obj: { metadata: Record<string, unknown> }) => {
      obj.metadata.uid = 'filled-in-by-the-registry';
      return ObjectResult.of(obj as never, true);
    },
    update: async () => {
      throw errors.conflict({ group: '', plural: 'namespaces' }, 'gone', 'the object has been modified; please apply your changes to the latest version and try again');
    },
    delete: async () => ({ code: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' } }),
    deleteCollection: async () => ({ kind: 'ConfigMapList', items: [] }),
  } as unknown as RegistryClient;
  let n = 0;
  const client = auditedClient(registry, trail, { userAgent: (u) => `test/${u.username}`, newId: () => `id-${++n}` });
  const events = async () => (await backend.flushed(), lines.map((l) => JSON.parse(l)));
  return { client, calls, events };
}

describe('audited client', () => {
  test('a namespaced create: the collection path, the object as sent, 201', async () => {
    const { client, events } = setup();
    await client.create(configMapDefinition, 'team', { metadata: { name: 'kube-root-ca.crt' }, data: { 'ca.crt': 'x' } }, write);
    expect(await events()).toEqual([
      expect.objectContaining({
        auditID: 'id-1',
        stage: 'ResponseComplete',
        level: 'Request',
        verb: 'create',
        requestURI: '/api/v1/namespaces/team/configmaps',
        user: { username: user.username, groups: user.groups },
        userAgent: `test/${user.username}`,
        objectRef: { resource: 'configmaps', namespace: 'team', apiGroup: '', apiVersion: 'v1' },
        requestObject: { metadata: { name: 'kube-root-ca.crt' }, data: { 'ca.crt': 'x' } },
        responseStatus: { metadata: {}, code: 201 },
      }),
    ]);
  });

  test('a failed subresource update: its Status, and the error reaches the controller', async () => {
    const { client, events } = setup();
    await expect(client.update(namespaceDefinition, undefined, 'gone', { metadata: { name: 'gone' } }, write, 'finalize')).rejects.toMatchObject({ status: { code: 409 } });
    expect((await events())[0]).toMatchObject({
      verb: 'update',
      requestURI: '/api/v1/namespaces/gone/finalize',
      objectRef: { resource: 'namespaces', name: 'gone', subresource: 'finalize' },
      responseStatus: { code: 409, status: 'Failure', reason: 'Conflict', message: expect.stringContaining('the object has been modified') },
    });
  });

  test('deletes send DeleteOptions; a delete of a collection carries its selectors in the query', async () => {
    const { client, events } = setup();
    await client.delete(configMapDefinition, 'team', 'old', { ...controllerDelete(user, 'v1'), preconditions: { uid: 'u-1' } });
    await client.deleteCollection(configMapDefinition, { namespace: 'team', labelSelector: 'app=web' }, controllerDelete(user, 'v1'));
    const [one, all] = await events();
    expect(one).toMatchObject({
      verb: 'delete',
      requestURI: '/api/v1/namespaces/team/configmaps/old',
      requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background', preconditions: { uid: 'u-1' } },
      responseStatus: { code: 200 },
    });
    expect(all).toMatchObject({ verb: 'deletecollection', requestURI: '/api/v1/namespaces/team/configmaps?labelSelector=app%3Dweb', objectRef: { resource: 'configmaps', namespace: 'team' } });
  });

  test('reads are not audited', async () => {
    const { client, calls, events } = setup();
    await client.get(configMapDefinition, 'team', 'x');
    await client.list(configMapDefinition, { namespace: 'team' });
    expect(calls).toEqual(['get', 'list']);
    expect(await events()).toEqual([]);
  });
});
