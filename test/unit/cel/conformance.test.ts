/**
 * The CEL spec's conformance suite (as shipped in @bufbuild/cel-spec), run
 * through the runtime our engine uses, for the language areas Kubernetes
 * rules rely on. Sections we do not use are skipped by name below, each with
 * the reason; every other test must pass, so a library upgrade that regresses
 * one of them fails here.
 */
import { isCelError, parse, plan } from '@bufbuild/cel';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import { getConformanceSuite, type IncrementalTest, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { runtimeEnv } from '../../../src/machinery/cel/runtime';
import { render, toInput } from './conformance-values';

/** Whole sections (first path element) or sub-sections (`section/sub`) we do not run. */
const SKIPPED: Record<string, string> = {
  // Protobuf messages, enums, wrappers and extensions: Kubernetes objects are JSON, never protobuf messages in CEL.
  proto2: 'protobuf messages',
  proto2_ext: 'protobuf extensions',
  proto3: 'protobuf messages',
  enums: 'protobuf enums',
  wrappers: 'protobuf wrapper types',
  dynamic: 'protobuf wrappers and google.protobuf.Value/Struct conversions',
  // Extensions Kubernetes does not enable (environment/base.go): bind, block, base64, math.
  bindings_ext: 'cel.bind is not in the Kubernetes environment',
  block_ext: 'cel.block is an optimizer artifact, not in the Kubernetes environment',
  encoders_ext: 'base64 is not in the Kubernetes environment',
  math_ext: 'math.* is not in the Kubernetes environment',
  // Language features the library does not have; documented in docs/cel.md.
  optionals: 'the parser has no optional syntax (.?, [?], optional.*)',
  macros2: 'two-variable comprehensions are not supported by the parser',
  'fields/quoted_map_fields': 'backquoted field names are not supported by the parser',
  // Checker-only or partial-evaluation suites: our checker has its own tests.
  type_deductions: 'type-checker expectations, not evaluation',
  unknowns: 'partial evaluation is not used',
};

/** Single tests inside sections we run, failing for a reason we accept. */
const KNOWN_FAILURES: Record<string, string> = {
  // cel-go and cel-java fail it too: mixed int/uint keys are a map literal error only with a checker.
  'fields/qualified_identifier_resolution/map_value_repeat_key_heterogeneous': 'heterogeneous duplicate keys',
};

const registry = getTestRegistry();

function runOne(t: IncrementalTest): void {
  const o = t.original;
  const env = runtimeEnv({ registry, namespace: o.container });
  const bindings: Record<string, ReturnType<typeof toInput>> = {};
  for (const [name, b] of Object.entries(o.bindings)) {
    if (b.kind.case !== 'value') throw new Error(`binding ${name} is not a value`);
    bindings[name] = toInput(b.kind.value, registry);
  }
  let result: unknown;
  try {
    result = plan(env, parse(o.expr))(bindings);
  } catch (err) {
    result = err;
  }
  const m = o.resultMatcher;
  switch (m.case) {
    case 'evalError':
    case 'anyEvalErrors':
      expect(isCelError(result) || result instanceof Error).toBe(true);
      return;
    case 'value':
      if (isCelError(result) || result instanceof Error) throw result as Error;
      expect(render(result, registry)).toEqual(render(toInput(m.value, registry), registry));
      return;
    case undefined:
      expect(result).toBe(true);
      return;
    default:
      throw new Error(`unsupported matcher ${m.case}`);
  }
}

function collect(suite: IncrementalTestSuite, path: string[], out: [string, IncrementalTest][]): void {
  for (const s of suite.suites) collect(s, [...path, s.name], out);
  for (const t of suite.tests) out.push([[...path, t.original.name || t.name].join('/'), t]);
}

const all: [string, IncrementalTest][] = [];
for (const section of getConformanceSuite().suites) collect(section, [section.name], all);
const skipped = (path: string) => Object.keys(SKIPPED).some((p) => path === p || path.startsWith(`${p}/`));
const run = all.filter(([path]) => !skipped(path) && !(path in KNOWN_FAILURES));

describe('CEL conformance', () => {
  it('covers the sections we rely on', () => {
    const sections = new Set(run.map(([p]) => p.split('/')[0]));
    for (const s of ['basic', 'comparisons', 'conversions', 'fields', 'fp_math', 'integer_math', 'lists', 'logic', 'macros', 'parse', 'string', 'string_ext', 'timestamps']) {
      expect(sections).toContain(s);
    }
    expect(run.length).toBeGreaterThan(1300);
  });

  it.each(run)('%s', (_path, t) => runOne(t));

  it.each(Object.keys(KNOWN_FAILURES))('known failure %s still fails (remove it from the list when it passes)', (path) => {
    const t = all.find(([p]) => p === path)?.[1];
    expect(t).toBeDefined();
    expect(() => runOne(t!)).toThrow();
  });
});
