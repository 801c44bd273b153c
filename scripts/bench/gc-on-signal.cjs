// Benchmark only: scripts/bench/procs.mjs preloads this into a server started with `--expose-gc` (never part of the
// product). On SIGUSR2 it waits for the I/O callbacks still due (a response just read in full may still hold the
// buffers its socket wrote), runs full garbage collections, lets V8's background threads hand freed pages back,
// and prints the process's memory on one stderr line, so the benchmark reads memory net of garbage.
'use strict';
process.on('SIGUSR2', () => {
  setTimeout(() => {
    global.gc();
    global.gc();
    setTimeout(() => process.stderr.write(`\n[bench-gc] ${JSON.stringify(process.memoryUsage())}\n`), 250);
  }, 200);
});
