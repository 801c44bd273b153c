// CPU time of the server by Linux perf (`perf record -e cpu-clock`), for `PROFILE_CPU=perf npm run profile`.
// --cpu-prof samples the main thread on a wall clock: on a small machine shared with the load generator (and etcd)
// it charges a function for moments the process was not running, and it sees neither the kernel, nor TLS, nor the
// garbage collector's and compiler's threads. perf counts the CPU time the process used, on every thread, with the
// kernel's part; node's --perf-basic-prof-only-functions names the JavaScript frames.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Per-process samples per second. */
export const frequency = 2000;

/** Whether `perf` runs here (it also needs perf_event_paranoid ≤ 1, or root, to record another process). */
export function havePerf() {
  return spawnSync('perf', ['--version'], { encoding: 'utf8' }).error === undefined;
}

/** Starts recording every thread of `pid` into `file`; `stop()` resolves once perf has written it. */
export function recordCpu(pid, file) {
  const perf = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', String(frequency), '-g', '-p', String(pid), '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  perf.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => perf.on('exit', (code) => resolve(code)));
  return {
    async stop() {
      perf.kill('SIGINT');
      const code = await exited;
      if (code !== 0 && code !== null) throw new Error(`perf record failed (${code}): ${err.trim()}`);
    },
  };
}

/**
 * node appends to /tmp/perf-<pid>.map as it compiles, and V8 reuses the addresses of code it freed: an early
 * function (a decorator helper run once at startup) would name the code placed there later. Keeps, of entries
 * that overlap, the last written.
 */
export function newestCodeOnly(pid) {
  const file = `/tmp/perf-${pid}.map`;
  if (!existsSync(file)) return;
  const entries = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => {
    const [start, size] = line.split(' ', 2);
    return { line, start: parseInt(start, 16), end: parseInt(start, 16) + parseInt(size, 16) };
  });
  const claimed = new Map(); // 4 KiB page → entries kept that touch it
  const kept = [];
  const pages = (e) => Array.from({ length: Math.floor((e.end - 1) / 4096) - Math.floor(e.start / 4096) + 1 }, (_, i) => Math.floor(e.start / 4096) + i);
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (pages(e).some((p) => claimed.get(p)?.some((k) => k.start < e.end && e.start < k.end))) continue;
    for (const p of pages(e)) claimed.set(p, [...(claimed.get(p) ?? []), e]);
    kept.push(e.line);
  }
  writeFileSync(file, `${kept.reverse().join('\n')}\n`);
}

/** Each sample of `file`: its thread and its frames, innermost first, as `{ sym, dso }`. */
export function readSamples(file) {
  const out = spawnSync('perf', ['script', '-i', file, '-F', 'tid,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(`perf script failed: ${out.stderr}`);
  const samples = [];
  for (const block of out.stdout.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim());
    if (!lines.length) continue;
    const tid = lines[0].trim().split(/\s+/)[0];
    const frames = lines.slice(1).map((l) => {
      const m = /^\s*[0-9a-f]+\s+(.*?)(?:\+0x[0-9a-f]+)?\s+\((.*)\)\s*$/.exec(l);
      return m ? { sym: m[1], dso: m[2] } : { sym: l.trim(), dso: '' };
    });
    samples.push({ tid, frames });
  }
  return samples;
}

/** What a leaf frame is, in words an operator can act on. */
export function category(frame) {
  const { sym, dso } = frame;
  if (dso.includes('kernel') || dso === '[vdso]') return 'kernel (sockets, syscalls, page faults)';
  if (sym.startsWith('JS:')) {
    if (/\/dist\//.test(sym)) return 'JavaScript: the server';
    if (sym.includes('node_modules/')) return 'JavaScript: packages';
    if (/ node:/.test(sym)) return "JavaScript: node's own (http, streams, timers)";
    return 'JavaScript: generated (protobuf codecs)';
  }
  if (/aesni|gcm|_aes|AES|EVP_|SSL_|ssl3_|tls1|tls13|ossl_|BIO_|sha256|sha512|CRYPTO_|OPENSSL|poly1305|chacha|ecp_nistz|bn_|RSA_|TLSWrap|node::crypto::/.test(sym)) return 'TLS and crypto';
  if (/Heap::|Scaveng|Mark(ing|er|Compact)|Sweep|Evacuat|Compactor|MemoryChunk|RememberedSet|SlotSet|GCTracer|ConcurrentMarking|LargeObjectSpace|MemoryAllocator|Heap\b/.test(sym)) return 'garbage collection';
  if (/compiler::|Compile|TurboFan|Turbofan|Maglev|Sparkplug|Baseline(?!OutOfLine)|interpreter::Bytecode(Generator|ArrayBuilder)|OptimizingCompile/.test(sym)) return 'JIT compiling';
  if (sym.startsWith('Builtins_')) return 'V8 builtins (property access, calls, promises, strings)';
  if (/libc|ld-linux/.test(dso)) return 'libc (malloc, memcpy)';
  if (/^(node::|uv_|uv__|llhttp|nghttp2|cares|napi_)/.test(sym)) return 'node native (streams, HTTP parser, libuv)';
  if (/^v8::|^v8_|^Runtime_|^std::/.test(sym)) return 'V8 runtime (property lookups, IC misses, JSON)';
  return 'other native';
}

const shortJs = (sym, root) => sym.replace(/^JS:[*~^]?/, '').replace(`${root}/`, '');

/**
 * Who each sample is for: the innermost frame of the server's own code (dist/), which the node internals, builtins,
 * kernel and allocations below it were called for; else the innermost JavaScript frame; else its category.
 */
export function owner(frames, root) {
  const ours = frames.find((f) => f.sym.startsWith('JS:') && f.sym.includes(`${root}/dist/`));
  if (ours) return shortJs(ours.sym, root);
  const js = frames.find((f) => f.sym.startsWith('JS:'));
  if (js) return shortJs(js.sym, root);
  return `(no JavaScript) ${category(frames[0] ?? { sym: '', dso: '' })}`;
}

/** µs of CPU per request by category, by sampled frame, by owner and by thread (main or helpers), from perf's samples. */
export function attribute(samples, requests, root, mainTid) {
  const perRequest = 1e6 / frequency / requests;
  const add = (m, k) => m.set(k, (m.get(k) ?? 0) + perRequest);
  const byCategory = new Map();
  const byFrame = new Map();
  const byOwner = new Map();
  const byThread = new Map();
  for (const s of samples) {
    const leaf = s.frames[0] ?? { sym: '', dso: '' };
    add(byCategory, category(leaf));
    add(byFrame, leaf.sym.startsWith('JS:') ? shortJs(leaf.sym, root) : leaf.sym);
    add(byOwner, owner(s.frames, root));
    add(byThread, s.tid === String(mainTid) ? 'main thread' : 'other threads (GC, compiler, libuv pool)');
  }
  return { byCategory, byFrame, byOwner, byThread, total: samples.length * perRequest };
}
