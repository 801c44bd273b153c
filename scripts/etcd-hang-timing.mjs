#!/usr/bin/env node
// Time to answer while etcd hangs (SIGSTOP, not down), issue 11 defect 6. Not a test: it prints figures.
// Usage (after `npm run build`): node scripts/etcd-hang-timing.mjs [-- extra server flags]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, sleep, startEtcd, stopAll } from './bench/procs.mjs';

const root = process.env.SERVER_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const dash = process.argv.indexOf('--');
const extra = dash >= 0 ? process.argv.slice(dash + 1) : [];

async function timed(label, url, init) {
  const started = Date.now();
  let line;
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
    const text = await res.text();
    let summary = text.replace(/\s+/g, ' ').slice(0, 160);
    try {
      const j = JSON.parse(text);
      summary = `${j.reason ?? ''} ${JSON.stringify(j.message ?? '')}`;
    } catch {}
    const retry = res.headers.get('retry-after');
    line = `${res.status}${retry ? ` (Retry-After ${retry})` : ''} ${summary}`;
  } catch (e) {
    line = `no answer: ${e.message}`;
  }
  console.log(`${label.padEnd(34)} ${((Date.now() - started) / 1000).toFixed(2).padStart(6)} s  ${line}`);
}

async function main() {
  const etcd = await startEtcd();
  const port = await freePort();
  const certDir = mkdtempSync(join(tmpdir(), 'hang-pki-'));
  const args = ['--port', String(port), '--secure-port', String(await freePort()), '--data-dir', certDir, '--etcd-servers', etcd.endpoint, '--log-level', 'error'];
  const child = spawn(process.execPath, [join(root, 'dist/main.js'), ...args, ...extra], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error('server not ready');
    await sleep(100);
  }
  const cms = `${url}/api/v1/namespaces/default/configmaps`;
  const json = { 'Content-Type': 'application/json' };
  await fetch(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'before' } }) });
  console.log(`server ${root}, flags: ${extra.join(' ') || '(defaults)'}; etcd SIGSTOPped now`);
  process.kill(etcd.pid, 'SIGSTOP');
  try {
    await Promise.all([
      timed('POST create', cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'during' } }) }),
      timed('PUT replace', `${cms}/before`, { method: 'PUT', headers: json, body: JSON.stringify({ metadata: { name: 'before' }, data: { a: 'b' } }) }),
      timed('DELETE', `${cms}/before`, { method: 'DELETE' }),
      timed('GET (consistent, from etcd)', `${cms}/before`),
      timed('LIST (consistent)', cms),
      timed('GET resourceVersion=0 (cache)', `${cms}/before?resourceVersion=0`),
      timed('/readyz', `${url}/readyz`),
      timed('/livez', `${url}/livez`),
    ]);
  } finally {
    process.kill(etcd.pid, 'SIGCONT');
  }
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await stopAll();
  rmSync(certDir, { recursive: true, force: true });
}

main().catch(async (e) => {
  console.error(e);
  await stopAll();
  process.exit(1);
});
