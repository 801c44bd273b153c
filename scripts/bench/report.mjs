// What every benchmark phase shares: the server's CPU per request around a phase, number formatting, the
// ConfigMap body, and the markdown table (also used by readme.mjs to put the table into docs/benchmark.md).
import { existsSync } from 'node:fs';
import { request } from './load.mjs';
import { cpuSecondsOf } from './procs.mjs';

/**
 * The server process's CPU seconds: from /proc where there is one (the process's own process.cpuUsage(), read
 * without asking it), else process_cpu_seconds_total from /metrics. A scrape between slices cost the next slice
 * of one-client creates 1-5% of its rate and 40-60 µs of CPU per create (two servers of one build, one scraped).
 */
export async function serverCpuSeconds(server) {
  if (existsSync(`/proc/${server.pid}/stat`)) return cpuSecondsOf(server.pid);
  const text = (await request(`${server.url}/metrics`)).body.toString();
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)?.[1] ?? NaN);
}

/** Runs a load phase and returns its result with the server's CPU microseconds per request. */
export async function measured(server, phase) {
  const before = await serverCpuSeconds(server);
  const result = await phase();
  const after = await serverCpuSeconds(server);
  return { ...result, cpuUsPerRequest: result.count ? ((after - before) * 1e6) / result.count : NaN };
}

/** Runs a phase in this process and returns its result with this process's CPU microseconds per operation. */
export async function measuredHere(phase) {
  const before = process.cpuUsage();
  const result = await phase();
  const used = process.cpuUsage(before);
  return { ...result, cpuUsPerOp: result.count ? (used.user + used.system) / result.count : NaN };
}

export const fmt = (v, digits = 1) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : String(v ?? '—'));
export const mib = (bytes) => bytes / 1024 / 1024;
export const cmBody = (name, data, extra = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data });

/** The rows as a markdown table, grouped by section in the order each section first appears. */
export function table(rows) {
  const sections = [...new Set(rows.map((r) => r.section))];
  const lines = ['| section | measurement | server | baseline | unit | server CPU µs/req | note |', '|---|---|---:|---:|---|---:|---|'];
  for (const s of sections) {
    for (const r of rows.filter((x) => x.section === s)) {
      lines.push(`| ${r.section} | ${r.what} | ${fmt(r.server, 2)} | ${fmt(r.baseline, 2)} | ${r.unit} | ${r.cpuUs === undefined ? '' : fmt(r.cpuUs, 0)} | ${r.note} |`);
    }
  }
  return lines.join('\n');
}
