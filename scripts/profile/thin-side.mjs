// PROFILE_THIN=1 with `PROFILE_CPU=perf npm run profile -- create etcd`: the benchmark's thin proxy
// (bench/thin-proxy.cjs: node:http storing each body in one etcd create transaction, nothing else) under the same
// load and the same perf recording, after the server's run on the same etcd, so that the server's CPU per create can
// be read against what the HTTP hop and the etcd call alone cost: issue 30's second target compares the two.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { agent, closedLoop, request } from '../bench/load.mjs';
import { cpuSecondsOf, sleep, startThinProxy } from '../bench/procs.mjs';
import { attribute, newestCodeOnly, readSamples, recordCpu } from './perf-samples.mjs';

/** The thin proxy's perf attribution (as attribute() gives it) and its CPU per create from /proc. */
export async function profileThin({ root, endpoint, work, clients, body, warmupMs, seconds }) {
  const proxy = await startThinProxy(root, endpoint, ['--perf-basic-prof-only-functions']);
  const a = agent(clients);
  let run = 0;
  const load = (ms) =>
    closedLoop(clients, ms, async (i) => {
      const r = await request(`${proxy.url}/api/v1/namespaces/profile/configmaps`, { method: 'POST', body: body(`t-${run}-${i}`), agent: a });
      if (r.status !== 201) throw new Error(`thin proxy: ${r.status}`);
    });
  try {
    await load(warmupMs);
    run++;
    const file = join(work, 'thin.perf');
    const perf = recordCpu(proxy.pid, file);
    await sleep(300); // perf attaches to each thread before the run starts
    const before = cpuSecondsOf(proxy.pid);
    const result = await load(seconds * 1000);
    const cpuUs = ((cpuSecondsOf(proxy.pid) - before) * 1e6) / result.count;
    await perf.stop();
    newestCodeOnly(proxy.pid);
    return { ...attribute(readSamples(file), result.count, root, proxy.pid), cpuUs, opsPerSec: result.opsPerSec };
  } finally {
    a.destroy();
    rmSync(`/tmp/perf-${proxy.pid}.map`, { force: true });
    await proxy.stop();
  }
}

/** Rows of µs per request for both sides and their difference, largest difference first. */
export function sideBySide(server, thin) {
  const keys = [...new Set([...server.keys(), ...thin.keys()])];
  const diff = (k) => (server.get(k) ?? 0) - (thin.get(k) ?? 0);
  const cell = (v) => (v ?? 0).toFixed(1).padStart(8);
  return [`  server     thin     diff  (µs per create)`]
    .concat(keys.sort((x, y) => diff(y) - diff(x)).map((k) => `${cell(server.get(k))} ${cell(thin.get(k))} ${cell(diff(k))}  ${k}`))
    .join('\n');
}
