/**
 * CustomResourceDefinitions driven by kubectl against the real server process: a stock apiextensions.k8s.io/v1
 * manifest applied, established, its custom resources created, listed with their printer columns, validated with
 * upstream's messages, patched, applied server-side, watched and explained, and all of it gone with the CRD.
 */
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, ServerProcess } from '../support/server-process';
import { kubectlFor, Kubectl } from '../support/kubectl';
import { until } from '../support/until';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
    shortNames: [wd]
    categories: [all-widgets]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    selectableFields:
    - jsonPath: .spec.color
    additionalPrinterColumns:
    - name: Color
      type: string
      jsonPath: .spec.color
    - name: Size
      type: integer
      jsonPath: .spec.size
    - name: Ready
      type: boolean
      jsonPath: .status.ready
    schema:
      openAPIV3Schema:
        type: object
        description: A widget of some color.
        properties:
          spec:
            type: object
            description: What the widget should be.
            x-kubernetes-validations:
            - rule: "!has(self.size) || self.size <= 10 || self.color == 'blue'"
              message: only blue widgets may be larger than 10
              fieldPath: .size
              reason: FieldValueForbidden
            properties:
              color:
                type: string
                description: The widget's color.
                enum: [red, blue]
              size:
                type: integer
                minimum: 1
                default: 3
              tags:
                type: array
                items: {type: string}
                x-kubernetes-list-type: set
          status:
            type: object
            properties:
              ready: {type: boolean}
`;

const widget = (name: string, spec: string) => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ${name}
spec:
${spec}
`;

describe('kubectl and CustomResourceDefinitions', () => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const ok = async (...args: string[]) => {
    const r = await kubectl(args);
    expect({ args, stderr: r.stderr, code: r.code }).toEqual({ args, stderr: '', code: 0 });
    return r.stdout;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-crd-'));
    server = await startServerProcess();
    kubectl = kubectlFor(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  test('a stock CRD manifest applies and becomes Established', async () => {
    expect(await ok('apply', '-f', file('crd.yaml', crd))).toBe('customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n');
    expect(await ok('wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s')).toBe(
      'customresourcedefinition.apiextensions.svc.io/widgets.example.com condition met\n',
    );
    const got = JSON.parse(await ok('get', 'crd', 'widgets.example.com', '-o', 'json'));
    expect(got.status.acceptedNames).toEqual({ plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList', categories: ['all-widgets'] });
    expect(got.status.conditions.map((c: { type: string; status: string; reason: string }) => [c.type, c.status, c.reason])).toEqual([
      ['NamesAccepted', 'True', 'NoConflicts'],
      ['Established', 'True', 'InitialNamesAccepted'],
    ]);
    expect(got.status.storedVersions).toEqual(['v1']);
  });

  test('custom resources: create, defaults, printer columns, selectable fields', async () => {
    // Discovery may lag the CRD by a moment: kubectl retries nothing, so wait until it knows the kind.
    await until('kubectl to discover widgets', async () => (await kubectl(['get', 'widgets'])).code === 0, { timeoutMs: 20_000 });
    expect(await ok('apply', '-f', file('w1.yaml', widget('w1', '  color: red')))).toBe('widget.example.com/w1 created\n');
    expect(await ok('create', '-f', file('w2.yaml', widget('w2', '  color: blue\n  size: 7')))).toBe('widget.example.com/w2 created\n');
    expect(await ok('get', 'wd')).toMatch(/^NAME\s+COLOR\s+SIZE\s+READY\nw1\s+red\s+3\s+\nw2\s+blue\s+7\s+\n$/);
    expect(await ok('get', 'widgets', '--field-selector', 'spec.color=blue', '-o', 'name')).toBe('widget.example.com/w2\n');
    expect(await ok('get', 'all-widgets', '-o', 'name')).toBe('widget.example.com/w1\nwidget.example.com/w2\n');
  });

  test('an invalid custom resource is refused with upstream messages', async () => {
    const r = await kubectl(['apply', '-f', file('bad.yaml', widget('bad', '  color: green\n  size: 0\n  tags: [a, a]'))]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The Widget "bad" is invalid: ');
    expect(r.stderr).toContain('* spec.color: Unsupported value: "green": supported values: "red", "blue"');
    expect(r.stderr).toContain('* spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1');
    expect(r.stderr).toContain('* spec.tags[1]: Duplicate value: "a"');
    // The CRD's CEL rule, with its message, reason and field path.
    const big = await kubectl(['apply', '-f', file('big.yaml', widget('big', '  color: red\n  size: 11'))]);
    expect(big.stderr).toContain('The Widget "big" is invalid: spec.size: Forbidden: only blue widgets may be larger than 10');
    expect(await ok('apply', '-f', file('big-blue.yaml', widget('big-blue', '  color: blue\n  size: 11')))).toBe('widget.example.com/big-blue created\n');
    await ok('delete', 'wd', 'big-blue');
    const unknown = await kubectl(['apply', '-f', file('unknown.yaml', widget('unknown', '  color: red\n  shape: round'))]);
    expect(unknown.stderr).toContain('Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.shape"');
  });

  test('patch, server-side apply and the status subresource', async () => {
    expect(await ok('patch', 'wd', 'w1', '--type=merge', '-p', '{"spec":{"color":"blue"}}')).toBe('widget.example.com/w1 patched\n');
    expect(await ok('apply', '--server-side', '--field-manager=team', '-f', file('w1-ssa.yaml', widget('w1', '  color: blue\n  tags: [x]')))).toBe(
      'widget.example.com/w1 serverside-applied\n',
    );
    expect(await ok('patch', 'wd', 'w1', '--subresource=status', '--type=merge', '-p', '{"status":{"ready":true}}', '-o', 'jsonpath={.status.ready}')).toBe('true');
    // A spec write does not touch status; generation follows spec changes only.
    const w1 = JSON.parse(await ok('get', 'wd', 'w1', '-o', 'json', '--show-managed-fields'));
    expect(w1.spec).toEqual({ color: 'blue', size: 3, tags: ['x'] });
    expect(w1.status).toEqual({ ready: true });
    expect(w1.metadata.generation).toBe(3);
    expect(w1.metadata.managedFields.map((m: { manager: string; subresource?: string }) => [m.manager, m.subresource ?? ''])).toEqual(
      expect.arrayContaining([['team', ''], ['kubectl-patch', 'status']]),
    );
  });

  test('kubectl explain reads the schema', async () => {
    const text = await ok('explain', 'widgets.spec.color');
    expect(text).toContain('KIND:       Widget');
    expect(text).toContain("The widget's color.");
  });

  test('a watch sees custom resources change', async () => {
    let out = '';
    const w = kubectlWatch(['get', 'wd', '--watch', '-o', 'name']);
    w.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      // The list comes first: once it is shown, the watch is open.
      await until('the watch to list what exists', () => out.includes('widget.example.com/w2'), { timeoutMs: 10_000 });
      await ok('create', '-f', file('w3.yaml', widget('w3', '  color: red')));
      await until('the watch to show w3', () => out.includes('widget.example.com/w3'), { timeoutMs: 10_000 });
    } finally {
      w.kill();
    }
  });

  test('kubectl scale goes through the scale subresource (autoscaling/v1 Scale)', async () => {
    const pools = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pools.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, singular: pool, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {replicas: {type: integer}}}
          status: {type: object, properties: {replicas: {type: integer}, selector: {type: string}}}
`;
    await ok('apply', '-f', file('pools.yaml', pools));
    await ok('wait', '--for=condition=Established', 'crd/pools.example.com', '--timeout=20s');
    await until('kubectl to discover pools', async () => (await kubectl(['get', 'pools'])).code === 0, { timeoutMs: 20_000 });
    await ok('create', '-f', file('p1.yaml', 'apiVersion: example.com/v1\nkind: Pool\nmetadata:\n  name: p1\nspec:\n  replicas: 1\n'));
    await ok('patch', 'pool', 'p1', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":1,"selector":"app=p1"}}');
    expect(await ok('scale', 'pool', 'p1', '--replicas=4')).toBe('pool.example.com/p1 scaled\n');
    expect(await ok('get', 'pool', 'p1', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}')).toBe('4 2');
    const scale = JSON.parse(await ok('get', '--raw', '/apis/example.com/v1/namespaces/default/pools/p1/scale'));
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'p1', namespace: 'default' }, spec: { replicas: 4 }, status: { replicas: 1, selector: 'app=p1' } });
    const negative = await fetch(`${server.url}/apis/example.com/v1/namespaces/default/pools/p1/scale`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...scale, spec: { replicas: -1 } }),
    });
    expect(negative.status).toBe(422);
    expect(((await negative.json()) as { message: string }).message).toBe('Scale.autoscaling "p1" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const stale = await fetch(`${server.url}/apis/example.com/v1/namespaces/default/pools/p1/scale`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...scale, metadata: { ...scale.metadata, resourceVersion: '1' }, spec: { replicas: 2 } }),
    });
    expect(stale.status).toBe(409);
  });

  test('deleting the CRD deletes its custom resources and stops serving them', async () => {
    expect(await ok('delete', 'crd', 'widgets.example.com', '--timeout=30s')).toBe('customresourcedefinition.apiextensions.svc.io "widgets.example.com" deleted\n');
    // Every replica stops serving the kind once its watch cache sees the CRD gone.
    await until('widgets to be withdrawn', async () => (await fetch(`${server.url}/apis/example.com/v1/namespaces/default/widgets`)).status === 404, { timeoutMs: 10_000 });
    // Created again, the kind has no objects left from before.
    await ok('apply', '-f', join(dir, 'crd.yaml'));
    await ok('wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s');
    await until('widgets to be served again', async () => (await fetch(`${server.url}/apis/example.com/v1/widgets`)).status === 200, { timeoutMs: 10_000 });
    const list = (await (await fetch(`${server.url}/apis/example.com/v1/widgets`)).json()) as { items: unknown[] };
    expect(list.items).toEqual([]);
  });

  function kubectlWatch(args: string[]) {
    return spawn('kubectl', ['-s', server.url, ...args], { env: { ...process.env, KUBECONFIG: '/dev/null' } });
  }
});
