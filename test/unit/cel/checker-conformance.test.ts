/**
 * Our checker against cel-go's: for the conformance sections we run, each
 * expression's deduced type (recorded from cel-go in @bufbuild/cel-spec) must
 * match ours, and an expression cel-go rejects must be rejected. Literals are
 * checked without Kubernetes' homogeneity rule, as the suite's are.
 */
import { parse } from '@bufbuild/cel';
import type { Type } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
import { getConformanceSuite, type IncrementalTest, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { check } from '../../../src/machinery/cel/checker';
import { Declarations } from '../../../src/machinery/cel/declarations';
import { kubernetesLibraries } from '../../../src/machinery/cel/libraries';
import { standardDeclarations } from '../../../src/machinery/cel/stdlib';
import { T, typeName, type CelT } from '../../../src/machinery/cel/types';

const SECTIONS = ['basic', 'comparisons', 'conversions', 'fields', 'fp_math', 'integer_math', 'lists', 'logic', 'macros', 'parse', 'string', 'string_ext', 'timestamps', 'plumbing'];
/** Protobuf messages and wrappers are out of scope, as in conformance.test.ts. */
const PROTO = /google\.protobuf\.|TestAllTypes|conformance\.proto|\{\s*single_/;
const KNOWN: Record<string, string> = {
  'parse/nest/parens': 'cel-go limits parenthesis nesting to 32; the library parser has no such limit',
  'fields/quoted_map_fields': 'backquoted field names are not supported by the parser',
};
const known = (path: string) => Object.keys(KNOWN).some((k) => path === k || path.startsWith(`${k}/`));

const decls = new Declarations(standardDeclarations, ...kubernetesLibraries.map((l) => l.declarations));

function toType(t: Type | undefined): CelT | undefined {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'primitive':
      return [T.dyn, T.bool, T.int, T.uint, T.double, T.string, T.bytes][k.value];
    case 'wellKnown':
      return [T.dyn, T.dyn, T.timestamp, T.duration][k.value];
    case 'dyn':
      return T.dyn;
    case 'null':
      return T.null;
    case 'listType': {
      const e = toType(k.value.elemType);
      return e && T.list(e);
    }
    case 'mapType': {
      const [a, b] = [toType(k.value.keyType), toType(k.value.valueType)];
      return a && b && T.map(a, b);
    }
    default:
      return undefined;
  }
}

/** The suite spells null_type `null`, the type of types `type`, and the well-known types by their CEL names. */
const normalize = (s: string) =>
  s.replace(/null_type/g, 'null').replace(/type\(dyn\)/g, 'type').replace(/google\.protobuf\.Timestamp/g, 'timestamp').replace(/google\.protobuf\.Duration/g, 'duration');

function collect(s: IncrementalTestSuite, p: string[], out: [string, IncrementalTest][]) {
  for (const c of s.suites) collect(c, [...p, c.name], out);
  for (const t of s.tests) out.push([[...p, t.original.name || t.name].join('/'), t]);
}

const cases: [string, IncrementalTest, Map<string, CelT>][] = [];
for (const section of getConformanceSuite().suites) {
  if (!SECTIONS.includes(section.name)) continue;
  const all: [string, IncrementalTest][] = [];
  collect(section, [section.name], all);
  for (const [path, t] of all) {
    const o = t.original;
    if (o.disableCheck || o.container || PROTO.test(o.expr) || known(path) || (!t.type && !t.error)) continue;
    const vars = new Map<string, CelT>();
    const typed = o.typeEnv.every((d) => {
      const ty = d.declKind.case === 'ident' ? toType(d.declKind.value.type) : undefined;
      if (ty) vars.set(d.name, ty);
      return ty !== undefined;
    });
    if (typed) cases.push([path, t, vars]);
  }
}

describe('checker agrees with cel-go on the conformance expressions', () => {
  it('has enough cases to mean something', () => {
    expect(cases.length).toBeGreaterThan(1000);
  });

  it.each(cases)('%s', (_path, t, vars) => {
    const parsed = parse(t.original.expr);
    const r = check(parsed.expr, parsed.sourceInfo?.positions ?? {}, decls, vars, { homogeneousLiterals: false });
    if (t.error) expect(r.issues.length).toBeGreaterThan(0);
    else {
      expect(r.issues).toEqual([]);
      expect(normalize(typeName(r.type))).toBe(normalize(t.type!));
    }
  });
});
