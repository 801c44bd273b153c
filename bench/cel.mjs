// Micro-benchmark of the CEL engine: compile once, evaluate many times.
// Run after `npm run build`: node bench/cel.mjs
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { compileRule } = require('../dist/machinery/cel/compile.js');
const { evaluate } = require('../dist/machinery/cel/evaluate.js');
const { crdRuleEnvironment } = require('../dist/machinery/cel/presets.js');
const { toCelValue } = require('../dist/machinery/cel/values.js');

const schema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    maxReplicas: { type: 'integer' },
    items: { type: 'array', maxItems: 100, items: { type: 'object', properties: { name: { type: 'string', maxLength: 253 } } } },
  },
};
const json = { replicas: 3, maxReplicas: 5, items: Array.from({ length: 10 }, (_, i) => ({ name: `item-${i}` })) };
const { env } = crdRuleEnvironment(schema, false);

function time(label, fn, n) {
  for (let i = 0; i < Math.min(n, 20000); i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  const us = Number(process.hrtime.bigint() - start) / 1e3 / n;
  console.log(`${label.padEnd(62)} ${us.toFixed(2)} µs`);
}

const self = toCelValue(json, schema);
for (const rule of ['self.replicas <= self.maxReplicas', 'self.items.all(i, i.name.size() < 64)']) {
  const { program, error } = compileRule(rule, env);
  if (error) throw new Error(error);
  if (evaluate(program, { self }).value !== true) throw new Error(`${rule} did not hold`);
  time(`evaluate ${rule}`, () => evaluate(program, { self }), 200000);
  time(`compile  ${rule}`, () => compileRule(rule, env), 2000);
}
time('toCelValue (the object above, once per request)', () => toCelValue(json, schema), 100000);
