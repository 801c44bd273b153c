// `node scripts/decode-bench.mjs [dist ...]`: µs of CPU per request-body decode (a 1 KB ConfigMap as JSON and as
// YAML) and per revision splice of stored JSON. Several builds (e.g. a copy of dist made before a change, and dist)
// are measured in turn, each in a process of its own (in one, they would share js-yaml's compiled code), ROUNDS
// times, so that a busy machine weighs on each alike; the least time counts.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const jsYaml = require('js-yaml');
const dists = (process.argv.length > 2 ? process.argv.slice(2) : [join(root, 'dist')]).map((d) => resolve(d));

const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'bench-config', namespace: 'default', labels: { app: 'bench', tier: 'backend' }, annotations: { owner: 'team-a' } },
  data: {},
};
for (let i = 0; JSON.stringify(configMap).length < 1000; i++) configMap.data[`key-${i}`] = `value ${i} `.repeat(4);
const json = Buffer.from(JSON.stringify(configMap));
const yamlText = Buffer.from(jsYaml.dump(configMap));
const yamlRepeated = Buffer.from(`${yamlText}data:\n  again: x\n`); // a repeated key, which strict decoding reports
const stored = JSON.stringify({ ...configMap, metadata: { ...configMap.metadata, uid: '9c1f6c0e-3d3c-4b8e-9b1e-1f4f0b6f2a11', creationTimestamp: '2024-01-01T00:00:00Z' } });

const cases = [
  { what: `decodeJson, ${json.length} B ConfigMap`, n: 20000, run: (b) => b.decodeJson(json) },
  { what: `decodeYaml, ${yamlText.length} B ConfigMap`, n: 4000, run: (b) => b.decodeYaml(yamlText) },
  { what: `decodeYaml, ${yamlRepeated.length} B, a key repeated`, n: 2000, run: (b) => b.decodeYaml(yamlRepeated) },
  { what: `insertRevisionInText, ${stored.length} B stored`, n: 20000, run: (b) => b.insertRevisionInText(stored, 12345) },
];

/** CPU µs per call of `n` calls: CPU, not wall time, so that waiting for a busy core stays out. */
function cpu(fn, n) {
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const used = process.cpuUsage(t);
  return (used.user + used.system) / n;
}

/** One build in this process: the least of a few runs of each case. */
function measure(dist) {
  const build = { ...require(join(dist, 'adapters/http/media.js')), ...require(join(dist, 'registry/with-revision.js')) };
  return cases.map((c) => {
    let best = cpu(() => c.run(build), c.n); // warm up
    for (let r = 0; r < 5; r++) best = Math.min(best, cpu(() => c.run(build), c.n));
    return best;
  });
}

if (process.env.DECODE_BENCH_CHILD) {
  console.log(JSON.stringify(measure(process.env.DECODE_BENCH_CHILD)));
} else {
  const best = dists.map(() => cases.map(() => Infinity));
  for (let r = 0; r < Number(process.env.ROUNDS ?? 5); r++) {
    dists.forEach((dist, i) => {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, DECODE_BENCH_CHILD: dist } });
      JSON.parse(out.toString()).forEach((us, k) => (best[i][k] = Math.min(best[i][k], us)));
    });
  }
  cases.forEach((c, k) => console.log(`${c.what.padEnd(40)} ${best.map((b) => `${b[k].toFixed(2).padStart(7)} µs`).join('  ')}`));
  console.log(`builds, left to right: ${dists.join(', ')}`);
}
