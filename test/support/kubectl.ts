/** The installed kubectl against a test server, with its own kubeconfig and discovery cache. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type Kubectl = (args: string[], opts?: { input?: string; env?: Record<string, string> }) => Promise<KubectlResult>;

/** kubectl with a given kubeconfig file (e.g. the server's admin.kubeconfig), and its own discovery cache. */
export function kubectlWithConfig(kubeconfig: string): Kubectl {
  const dir = mkdtempSync(join(tmpdir(), 'svc-kubectl-'));
  return run(kubeconfig, dir);
}

export function kubectlFor(serverUrl: string): Kubectl {
  const dir = mkdtempSync(join(tmpdir(), 'svc-kubectl-'));
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
