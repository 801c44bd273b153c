// Child process for lmdb.contract.test.ts: writes batches through the adapter
// and reports each acknowledged batch on stdout until it is SIGKILLed.
// TypeScript sources are transpiled on the fly (no build step in tests).
const fs = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    fileName: filename,
  });
  module._compile(outputText, filename);
};

const { openLmdbStorage } = require('../../src/adapters/lmdb/index.ts');
const storage = openLmdbStorage(process.argv[2]);

(async () => {
  for (let batch = 0; ; batch++) {
    const writes = Array.from({ length: 20 }, (_, i) => storage.create(`/kill/${batch}-${i}`, Buffer.from(`v${batch}`)));
    const revs = await Promise.all(writes);
    process.stdout.write(`${JSON.stringify({ batch, maxRevision: Math.max(...revs) })}\n`);
  }
})();
