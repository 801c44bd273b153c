/**
 * The Python client's DynamicClient (Debian's python3-kubernetes, which .ci/run installs) against the real server
 * process: it discovers a kind a CustomResourceDefinition defines and creates, gets, lists, patches and deletes its
 * custom resources (dynamic-client-crd.py beside this file does the driving).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, ServerProcess } from '../support/server-process';

const INSTALL_HINT = 'no python3 with the kubernetes package: apt-get install -y python3-kubernetes (.ci/run does)';

/** A python3 that has the kubernetes package: Debian's (a pyenv or venv python3 on PATH may not see it). */
function findPython(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import kubernetes.dynamic'], { stdio: 'ignore' }).status === 0);
}

/** That python3, installing Debian's python3-kubernetes when running as root (as the etcd harness installs etcd). */
function python(): string {
  const found = findPython();
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error(INSTALL_HINT);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', 'python3-kubernetes'], { stdio: 'ignore', env }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
    install();
  }
  const installed = findPython();
  if (!installed) throw new Error(`apt-get install python3-kubernetes did not help; ${INSTALL_HINT}`);
  return installed;
}

describe('the Python DynamicClient and custom resources', () => {
  let server: ServerProcess;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-py-'));
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('discovers the Widget kind and creates, gets, lists, patches and deletes a Widget', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(python(), [join(__dirname, 'dynamic-client-crd.py'), server.url, join(dir, 'discovery.json')], { timeout: 90_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}\n${stdout}`)) : resolve(stdout),
      ),
    );
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(result.crd).toEqual({ apiVersion: 'apiextensions.k8s.io/v1', name: 'widgets.example.com' });
    expect(result.resource).toEqual({
      name: 'widgets',
      kind: 'Widget',
      namespaced: true,
      short_names: ['wd'],
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    });
    expect(result.custom).toEqual({
      created: { kind: 'Widget', name: 'py-1', spec: { color: 'red', size: 3 } },
      got: true,
      listed: { kind: 'WidgetList', names: ['py-1', 'py-2'] },
      selected: ['py-1'],
      patched: { color: 'red', size: 5 },
      deleted: 404,
    });
  }, 120_000);
});
