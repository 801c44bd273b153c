/** The installed kubectl against a test server, with its own kubeconfig and discovery cache. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type Kubectl = (args: string[], opts?: { input?: string; env?: Record<string, string> }) => Promise<KubectlResult>;

/** Each kubectl's kubeconfig and discovery cache, removed after the test file that made it (jest loads this module once per file). */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function kubectlDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-kubectl-'));
  dirs.push(dir);
  return dir;
}

/** kubectl with a given kubeconfig file (e.g. the server's admin.kubeconfig), and its own discovery cache. */
export function kubectlWithConfig(kubeconfig: string): Kubectl {
  const dir = kubectlDir();
  return run(kubeconfig, dir);
}

export function kubectlFor(serverUrl: string): Kubectl {
  const dir = kubectlDir();
  const kubeconfig = join(dir, 'config');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters:
- name: test
  cluster: {server: "${serverUrl}"}
contexts:
- name: test
  context: {cluster: test, user: test, namespace: default}
users:
- name: test
  user: {}
current-context: test
`,
  );
  return run(kubeconfig, dir);
}

function run(kubeconfig: string, dir: string): Kubectl {
  return (args, opts = {}) =>
    new Promise((resolve) => {
      const child = execFile(
        'kubectl',
        ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), '--request-timeout', '20s', ...args],
        { env: { ...process.env, ...opts.env }, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      if (opts.input !== undefined) child.stdin!.end(opts.input);
      else child.stdin!.end();
    });
}
