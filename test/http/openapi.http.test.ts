/** The generated OpenAPI documents are valid (checked by swagger-parser) and carry what kubectl looks for. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestServer, TestServer } from '../support/test-server';
import { allDefinitions } from '../../src/resources';

describe('OpenAPI', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('lmdb');
  });
  afterAll(async () => {
    await s.close();
  });

  test('/openapi/v2 is a valid Swagger 2.0 document', async () => {
    const doc = (await (await fetch(`${s.url}/openapi/v2`)).json()) as any;
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
    // The fields' Go JSON tags (x-go-omitempty, x-go-pointer) are ours, not upstream's: never published.
    expect(JSON.stringify(doc)).not.toContain('"x-go-');
  });

  test('every /openapi/v3 group-version document is valid and names its kinds', async () => {
    const index = (await (await fetch(`${s.url}/openapi/v3`)).json()) as any;
    const gvs = Object.keys(index.paths).sort();
    const expected = [...new Set(allDefinitions.map((d) => (d.group ? `apis/${d.group}/${d.version}` : `api/${d.version}`)))].sort();
    expect(gvs).toEqual(expected);
    for (const gv of gvs) {
      const url = index.paths[gv].serverRelativeURL as string;
      const res = await fetch(s.url + url);
      expect(res.headers.get('cache-control')).toBe('public, immutable');
      const etag = res.headers.get('etag')!;
      const doc = (await res.json()) as any;
      await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
      expect((await fetch(s.url + url, { headers: { 'if-none-match': etag } })).status).toBe(304);
      for (const def of allDefinitions.filter((d) => (d.group ? `apis/${d.group}/${d.version}` : `api/${d.version}`) === gv)) {
        const schema = doc.components.schemas[def.schemaRoot!.name];
        expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: def.group, version: def.version, kind: def.kind }]);
        expect(schema.description).toBeTruthy();
        const patch = Object.values(doc.paths as Record<string, any>).find(
          (p) => p.patch?.['x-kubernetes-group-version-kind']?.kind === def.kind && !p.patch.operationId.includes('Status'),
        );
        const params = patch.patch.parameters.map((p: { name: string }) => p.name);
        expect(params).toEqual(expect.arrayContaining(['fieldValidation', 'fieldManager', 'dryRun', 'force']));
        expect(Object.keys(patch.patch.requestBody.content)).toEqual(expect.arrayContaining(['application/apply-patch+yaml', 'application/merge-patch+json']));
      }
    }
  });
});
