/** kubectl's RBAC generator commands (protobuf bodies to upstream's group name) against the real server process. */
import { startServerProcess, ServerProcess } from '../support/server-process';
import { kubectlFor, Kubectl } from '../support/kubectl';

describe('kubectl create role / rolebinding / clusterrole / clusterrolebinding', () => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  beforeAll(async () => {
    server = await startServerProcess();
    kubectl = kubectlFor(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  const ok = async (...args: string[]) => {
    const r = await kubectl(args);
    expect({ args, stderr: r.stderr, code: r.code }).toEqual({ args, stderr: '', code: 0 });
    return r.stdout;
  };

  test('the generator commands create the objects, and get shows upstream columns', async () => {
    expect(await ok('create', 'role', 'settings-reader', '--verb=get,list', '--resource=configmaps', '--resource-name=settings')).toBe(
      'role.rbac.authorization.k8s.io/settings-reader created\n',
    );
    expect(await ok('create', 'rolebinding', 'read-settings', '--role=settings-reader', '--user=alice', '--group=devs', '--serviceaccount=ci:builder')).toBe(
      'rolebinding.rbac.authorization.k8s.io/read-settings created\n',
    );
    expect(await ok('create', 'clusterrole', 'metrics-reader', '--verb=get', '--resource=leases.coordination.svc.io', '--non-resource-url=/metrics')).toBe(
      'clusterrole.rbac.authorization.k8s.io/metrics-reader created\n',
    );
    expect(await ok('create', 'clusterrole', 'monitoring', '--aggregation-rule=rbac.example.com/aggregate-to-monitoring=true')).toBe(
      'clusterrole.rbac.authorization.k8s.io/monitoring created\n',
    );
    expect(await ok('create', 'clusterrolebinding', 'read-metrics', '--clusterrole=metrics-reader', '--user=bob', '--serviceaccount=monitoring:prometheus')).toBe(
      'clusterrolebinding.rbac.authorization.k8s.io/read-metrics created\n',
    );

    expect(await ok('get', 'rolebindings', '-o', 'wide')).toMatch(
      /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\nread-settings\s+Role\/settings-reader\s+\d+s\s+alice\s+devs\s+ci\/builder\n$/,
    );
    // The bootstrap policy has ClusterRoles and ClusterRoleBindings of its own: name ours.
    expect(await ok('get', 'clusterrolebindings', 'read-metrics')).toMatch(/^NAME\s+ROLE\s+AGE\nread-metrics\s+ClusterRole\/metrics-reader\s+\d+s\n$/);
    expect(await ok('get', 'clusterroles', 'metrics-reader', 'monitoring')).toMatch(/^NAME\s+CREATED AT\nmetrics-reader\s+\S+Z\nmonitoring\s+\S+Z\n$/);
    const role = JSON.parse(await ok('get', 'role', 'settings-reader', '-o', 'json'));
    expect(role.rules).toEqual([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }]);
    const cr = JSON.parse(await ok('get', 'clusterrole', 'monitoring', '-o', 'json'));
    expect(cr.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } }] });
    const crb = JSON.parse(await ok('get', 'clusterrolebinding', 'read-metrics', '-o', 'json'));
    expect(crb.roleRef).toEqual({ apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'metrics-reader' });
  });

  test('server dry run, an existing name, and a clear error for a bad binding', async () => {
    expect(await ok('create', 'rolebinding', 'dry', '--clusterrole=view', '--user=carol', '--dry-run=server', '-o', 'jsonpath={.apiVersion} {.roleRef.apiGroup}')).toBe(
      'rbac.authorization.k8s.io/v1 rbac.authorization.svc.io',
    );
    expect((await kubectl(['get', 'rolebinding', 'dry'])).code).not.toBe(0);
    expect(await ok('create', 'rolebinding', 'twice', '--clusterrole=view', '--user=carol')).toContain('created');
    const again = await kubectl(['create', 'rolebinding', 'twice', '--clusterrole=view', '--user=carol']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toBe('error: failed to create rolebinding: rolebindings.rbac.authorization.svc.io "twice" already exists\n');
    const bad = await kubectl(['create', 'rolebinding', 'bad/name', '--clusterrole=view', '--user=carol']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toBe('error: failed to create rolebinding: RoleBinding.rbac.authorization.svc.io "bad/name" is invalid: metadata.name: Invalid value: "bad/name": may not contain \'/\'\n');
  });
});
