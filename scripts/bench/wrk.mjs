// HTTP load from wrk (Debian's), in a process of its own, so that the generator's CPU is not the server's
// competitor inside one Node process and can be reported beside it. Its CPU comes from bash's `times` after it ends.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let runs = 0;

export function haveWrk() {
  return spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined;
}

/** The children's user and system time from bash's `times` ("0m1.234s 0m0.056s" on its second line). */
function childCpuSeconds(timesOutput) {
  const line = timesOutput.trim().split('\n').at(-1) ?? '';
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
}

/** wrk's "1.23ms" / "850.00us" / "1.02s" as milliseconds. */
function ms(text) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2]];
}

/**
 * A Lua script for wrk: a POST of `body(i)` per request, `i` counting up per connection thread, for creates that
 * need a new name each; or undefined for plain GETs.
 */
export function postScript(bodyTemplate, headers = {}) {
  const file = join(tmpdir(), `wrk-${process.pid}-${Date.now()}.lua`);
  const lines = [
    'local n = 0',
    'local prefix = "w-"',
    // Each run gives its own prefix (runWrk passes one after `--`), so no two runs create the same name.
    'init = function(args) prefix = args[1] or prefix end',
    'wrk.method = "POST"',
    'wrk.headers["Content-Type"] = "application/json"',
    ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
    'request = function()',
    '  n = n + 1',
    `  local body = string.gsub(${JSON.stringify(bodyTemplate)}, "NAME", prefix .. n)`,
    '  return wrk.format(nil, nil, nil, body)',
    'end',
  ];
  writeFileSync(file, lines.join('\n'));
  return file;
}

/** Runs wrk against url; ops/s, latency percentiles, non-2xx count, and wrk's own CPU seconds. */
export function runWrk(url, { connections, seconds, threads = 1, script, headers = {} }) {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  if (script) args.push('-s', script);
  args.push(url);
  if (script) args.push('--', `w${process.pid}-${++runs}-`);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'wrk "$@"; status=$?; times >&2; exit $status', 'wrk', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited ${code}: ${err || out}`));
      const cpu = childCpuSeconds(err);
      const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
      const perSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
      const pct = (p) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
      const failed = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const errors = failed + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
      resolve({ count: total, opsPerSec: perSec, p50: pct(50), p99: pct(99), errors, generatorCpuSeconds: cpu, generatorCpuUsPerRequest: total ? (cpu * 1e6) / total : NaN });
    });
  });
}
