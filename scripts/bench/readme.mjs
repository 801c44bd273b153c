// `npm run bench:readme`: puts the table of bench/results/latest.json (the last `npm run bench`) into
// docs/benchmark.md, between the bench-table marker comments, with a line naming the machine and the run.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, table } from './report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const start = '<!-- bench-table:start (npm run bench:readme writes this part from bench/results/latest.json) -->';
const end = '<!-- bench-table:end -->';
const results = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8'));
const readmePath = join(root, 'docs', 'benchmark.md');
const readme = readFileSync(readmePath, 'utf8');
const from = readme.indexOf(start);
const to = readme.indexOf(end);
if (from === -1 || to < from) {
  console.error(`docs/benchmark.md has no ${start} … ${end} section`);
  process.exit(1);
}
const machine = `${results.cpus} × ${results.cpuModel}, ${Math.round(results.memoryBytes / 1024 ** 3)} GiB, shared by etcd, the server and the load generator`;
const took = results.durationSeconds ? `; the run took ${fmt(results.durationSeconds / 60)} min` : '';
const body = `Run of ${results.startedAt.slice(0, 10)} (${machine}; Node ${results.node.replace(/^v/, '')}; etcd ${results.etcdVersion ?? '?'}${took}):\n\n${table(results.rows)}\n`;
writeFileSync(readmePath, `${readme.slice(0, from + start.length)}\n${body}${readme.slice(to)}`);
console.log(`docs/benchmark.md: benchmark table from the run of ${results.startedAt}`);
