#!/usr/bin/env node
// Memory of the server process while one 1 MB ConfigMap is replaced over and over (issue 11, defect 3).
// Not a test: it prints figures. Usage (after `npm run build`):
//   node scripts/replace-loop-rss.mjs [--backend lmdb|etcd] [--count 1000] [--bytes 1000000] [--watchers 1]
//                                     [--settle 20] [-- extra server flags]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { freePort, sleep, startEtcd, stopAll } from './bench/procs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const extra = dash >= 0 ? argv.slice(dash + 1) : [];
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && (dash < 0 || i < dash) ? argv[i + 1] : def;
};
const backend = opt('backend', 'lmdb');
const count = Number(opt('count', '1000'));
const bytes = Number(opt('bytes', '1000000'));
const watchers = Number(opt('watchers', '1'));
const settle = Number(opt('settle', '20'));

const mib = (n) => (n / 1024 / 1024).toFixed(1);
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
}

async function main() {
  const port = await freePort();
  // Plain HTTP on --port (as system:admin), HTTPS on a free --secure-port; PKI in the temporary directory.
  const dataDir = mkdtempSync(join(tmpdir(), 'rss-loop-'));
  const args = [join(root, 'dist/main.js'), '--port', String(port), '--secure-port', String(await freePort()), '--log-level', 'warn', '--data-dir', dataDir];
  if (backend === 'etcd') {
    const etcd = await startEtcd();
    args.push('--etcd-servers', etcd.endpoint, '--cert-dir', join(dataDir, 'pki'));
  }
  const child = spawn(process.execPath, [...args, ...extra], { stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error('server not ready');
    await sleep(100);
  }
  const base = `${url}/api/v1/namespaces/default/configmaps`;
  const idle = rssOf(child.pid);
  const body = (i) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { v: String(i % 10).repeat(bytes) } });
  let res = await fetch(base, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body(0) });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);

  // Watchers that read every event as it comes (kubectl get -w, an informer).
  const aborts = [];
  let received = 0;
  for (let w = 0; w < watchers; w++) {
    const ac = new AbortController();
    aborts.push(ac);
    const r = await fetch(`${base}?watch=1&resourceVersion=0`, { signal: ac.signal });
    (async () => {
      for await (const chunk of r.body) received += chunk.length;
    })().catch(() => {});
  }
  const started = Date.now();
  let peakDuring = 0;
  for (let i = 1; i <= count; i++) {
    res = await fetch(`${base}/big`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: body(i) });
    if (res.status !== 200) throw new Error(`replace ${i}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
    if (i % 50 === 0) peakDuring = Math.max(peakDuring, rssOf(child.pid).rss);
  }
  const seconds = (Date.now() - started) / 1000;
  const after = rssOf(child.pid);
  await sleep(settle * 1000);
  const settled = rssOf(child.pid);
  for (const ac of aborts) ac.abort();
  console.log(`backend ${backend}, ${count} replaces of a ${mib(bytes)} MiB ConfigMap in ${seconds.toFixed(1)} s, ${watchers} watcher(s) read ${mib(received)} MiB`);
  console.log(`server flags: ${extra.join(' ') || '(defaults)'}`);
  console.log(`RSS idle ${mib(idle.rss)} MiB; sampled peak during loop ${mib(peakDuring)} MiB; right after ${mib(after.rss)} MiB; after ${settle} s idle ${mib(settled.rss)} MiB (anonymous ${mib(settled.anon)}, file-backed ${mib(settled.file)}); VmHWM ${mib(settled.peak)} MiB`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await stopAll();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch(async (e) => {
  console.error(e);
  await stopAll();
  process.exit(1);
});
