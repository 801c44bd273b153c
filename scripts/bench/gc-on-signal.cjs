// Benchmark only: scripts/bench/procs.mjs preloads this into a server started with `--expose-gc` (never part of the
// product). On SIGUSR2 it runs full garbage collections, lets V8's background threads hand freed pages back, and
// prints the process's memory on one stderr line, so the benchmark reads memory net of garbage.
'use strict';
process.on('SIGUSR2', () => {
  global.gc();
  global.gc();
  setTimeout(() => process.stderr.write(`\n[bench-gc] ${JSON.stringify(process.memoryUsage())}\n`), 250);
});
