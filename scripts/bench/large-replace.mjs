// Large replaces: one ~900 KB ConfigMap (a few large values) replaced by PUT 300 times, one after another, on a
// fresh server; its RSS read from /proc before the loop, right after it and 10 s later (no forced GC: what an
// operator sees). Run with `--watch-cache-history-bytes 64Mi` on etcd and on the embedded store, and with the
// default bound (1/16 of the memory, at most 256 MiB) on the embedded store. Targets (issue 30): growth 10 s after
// ≤ 128 MiB at 64Mi, ≤ 1.25 × the bound + 64 MiB at the default; a replace ≤ 25 ms at the median.
import { totalmem } from 'node:os';
import { agent, request, sequential } from './load.mjs';
import { scratchDir, sleep, startServer } from './procs.mjs';
import { cmBody, fmt, mib } from './report.mjs';

const replaces = 300;
const valueBytes = 225 * 1024;
const namespace = 'large';
const name = 'big';

/** Four values of 225 KiB, one of them changed per replace (as an edited bundle would be). */
function data(i) {
  const d = {};
  for (const k of ['a', 'b', 'c', 'd']) d[k] = k.repeat(valueBytes);
  d.a = `${i}`.padStart(12, '0') + d.a.slice(12);
  return d;
}

/**
 * Replace i's body as text, built without JSON.stringify: the body is the same every time but for the counter at the
 * head of one value and the resourceVersion, and encoding 900 KB in the timed loop would time this process, not the
 * server (about 3 ms a body here). Equal to cmBody(name, data(i), { resourceVersion }).
 */
function bodyText(template, i, resourceVersion) {
  return `${template.head}${resourceVersion}${template.middle}${`${i}`.padStart(12, '0')}${template.tail}`;
}

function bodyTemplate() {
  const marker = 'RV-MARKER';
  const text = cmBody(name, data(0), { resourceVersion: marker });
  const at = text.indexOf(marker);
  const counter = text.indexOf('"a":"') + 5;
  if (at < 0 || counter < at) throw new Error('unexpected body layout');
  return { head: text.slice(0, at), middle: text.slice(at + marker.length, counter), tail: text.slice(counter + 12) };
}

/** The answer's resourceVersion: metadata comes before data in the stored object, so it is among the first bytes. */
function resourceVersionOf(body) {
  const m = /"resourceVersion":"(\d+)"/.exec(body.subarray(0, 4096).toString('latin1'));
  if (!m) throw new Error('no resourceVersion in the answer');
  return m[1];
}

/** The server's default history bound (config: 1/16 of the memory, at most 256 MiB). */
export const defaultHistoryBytes = () => Math.min(256 * 1024 * 1024, Math.floor(totalmem() / 16));

/** One run: a fresh server on `storage`, 300 replaces; RSS growth and replace times. */
export async function replaceRun(root, storage, extraArgs, options = {}) {
  const server = await startServer(root, storage, extraArgs, options);
  try {
    const url = `${server.url}/api/v1/namespaces/${namespace}/configmaps`;
    const created = await request(url, { method: 'POST', body: cmBody(name, data(0)) });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${created.body.toString().slice(0, 200)}`);
    let rv = JSON.parse(created.body).metadata.resourceVersion;
    const a = agent(1);
    await sleep(1000);
    const start = server.memory();
    const before = start.rss;
    const bodyBytes = cmBody(name, data(0), { resourceVersion: rv }).length;
    const template = bodyTemplate();
    if (bodyText(template, 7, '42') !== cmBody(name, data(7), { resourceVersion: '42' })) throw new Error('the body template differs from cmBody');
    const timed = await sequential(replaces, async (i) => {
      const r = await request(`${url}/${name}`, { method: 'PUT', body: bodyText(template, i + 1, rv), agent: a });
      if (r.status !== 200) throw new Error(`replace: ${r.status} ${r.body.toString().slice(0, 200)}`);
      rv = resourceVersionOf(r.body);
    });
    a.destroy();
    const after = server.memory().rss;
    await sleep(10_000);
    const settled = server.memory();
    return { bodyBytes, replaces, before, after, settled: settled.rss, peak: settled.peak, growth: settled.rss - before, anonGrowth: settled.anon - start.anon, fileGrowth: settled.file - start.file, p50: timed.p50, p99: timed.p99 };
  } finally {
    await server.stop();
  }
}

export async function largeReplace(root, etcdEndpoint, { row, log }) {
  const bound = defaultHistoryBytes();
  const runs = {
    // A prefix of its own: the servers on one prefix share a CA, and the benchmark's main server used /registry.
    etcd64: await replaceRun(root, etcdEndpoint, ['--etcd-prefix', '/large', '--watch-cache-history-bytes', '64Mi']),
    embedded64: await replaceRun(root, { dataDir: scratchDir('bench-large-') }, ['--watch-cache-history-bytes', '64Mi']),
    embeddedDefault: await replaceRun(root, { dataDir: scratchDir('bench-large-') }, []),
  };
  const size = `${fmt(runs.etcd64.bodyBytes / 1e3, 0)} KB`;
  const rss = (r) => `RSS ${fmt(mib(r.before))} → ${fmt(mib(r.after))} MiB right after → ${fmt(mib(r.settled))} MiB 10 s after (peak ${fmt(mib(r.peak))}; anonymous ${fmt(mib(r.anonGrowth))} MiB of the growth, file-backed ${fmt(mib(r.fileGrowth))})`;
  const target64 = 128;
  const targetDefault = 1.25 * mib(bound) + 64;
  row('large-replace', `RSS growth 10 s after ${replaces} replaces of a ${size} ConfigMap, history 64Mi, etcd`, mib(runs.etcd64.growth), target64, 'MiB', `baseline = target (≤); ${rss(runs.etcd64)}`);
  row('large-replace', `RSS growth 10 s after ${replaces} replaces of a ${size} ConfigMap, history 64Mi, embedded store`, mib(runs.embedded64.growth), target64, 'MiB', `baseline = target (≤); ${rss(runs.embedded64)}`);
  row('large-replace', `RSS growth 10 s after ${replaces} replaces, default history bound (${fmt(mib(bound), 0)} MiB), embedded store`, mib(runs.embeddedDefault.growth), targetDefault, 'MiB', `baseline = target (≤ 1.25 × bound + 64 MiB); ${rss(runs.embeddedDefault)}`);
  for (const [label, r] of [['etcd', runs.etcd64], ['embedded store', runs.embedded64]]) {
    row('large-replace', `replace (PUT) of a ${size} ConfigMap, ${label}, p50`, r.p50, 25, 'ms', `baseline = target (≤); one client, one after another; p99 ${fmt(r.p99)} ms`);
  }
  log(`large replaces: growth ${fmt(mib(runs.etcd64.growth))} / ${fmt(mib(runs.embedded64.growth))} / ${fmt(mib(runs.embeddedDefault.growth))} MiB, p50 ${fmt(runs.etcd64.p50)} / ${fmt(runs.embedded64.p50)} ms`);
  return { historyBytesDefault: bound, targets: { growth64MiB: target64, growthDefaultMiB: targetDefault, replaceP50Ms: 25 }, ...runs };
}
