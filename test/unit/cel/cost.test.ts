import { compileRule } from '../../../src/machinery/cel/compile';
import { costErrorMessage, maxCardinality, ruleCost, STATIC_ESTIMATED_COST_LIMIT } from '../../../src/machinery/cel/cost/limits';
import { evaluate } from '../../../src/machinery/cel/evaluate';
import { crdRuleEnvironment } from '../../../src/machinery/cel/presets';
import type { OpenApiSchema } from '../../../src/machinery/cel/schema-types';
import { toCelValue } from '../../../src/machinery/cel/values';

function estimate(schema: OpenApiSchema, rule: string): number {
  const { env } = crdRuleEnvironment(schema, false);
  const r = compileRule(rule, env);
  if (r.error !== undefined) throw new Error(r.error);
  return r.program.estimatedCost.max;
}

const RULE = "self.all(x, x.contains('gpu'))";

describe('static cost estimate from schema bounds', () => {
  it('prices a rule over an unbounded list of unbounded strings over the budget', () => {
    const cost = estimate({ type: 'array', items: { type: 'string' } }, RULE);
    expect(cost).toBeGreaterThan(STATIC_ESTIMATED_COST_LIMIT);
    expect(costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)).toBe(
      'estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    );
  });

  it('prices the same rule within budget once maxItems and maxLength bound it', () => {
    const cost = estimate({ type: 'array', maxItems: 10, items: { type: 'string', maxLength: 64 } }, RULE);
    // self 1 + result @result 1, and per item: loop condition 2, step: @result 1 + x 1 + contains ceil(256*0.1)*ceil(3*0.1) = 26
    expect(cost).toBe(2 + 10 * (2 + 1 + 1 + 26));
    expect(cost).toBeLessThan(STATIC_ESTIMATED_COST_LIMIT);
  });

  it('bounds only by maxItems still leaves each string at request size', () => {
    const onlyItems = estimate({ type: 'array', maxItems: 10, items: { type: 'string' } }, RULE);
    const both = estimate({ type: 'array', maxItems: 10, items: { type: 'string', maxLength: 64 } }, RULE);
    expect(onlyItems).toBeGreaterThan(both);
  });

  it.each([
    // self.a > 0: ident 1 + select 1 + call 1
    [{ type: 'object', properties: { a: { type: 'integer' } } }, 'self.a > 0', 3],
    // has() is free, as Kubernetes configures cel-go
    [{ type: 'object', properties: { a: { type: 'integer' } } }, 'has(self.a)', 1],
    // string equality: ceil(min(maxLen*4, 1) * 0.1)
    [{ type: 'object', properties: { s: { type: 'string', maxLength: 10 } } }, "self.s == 'x'", 3],
    [{ type: 'object', properties: { s: { type: 'string', maxLength: 10 } } }, "self.s.matches('^[a-z]+$')", 2 + Math.ceil(41 * 0.1) * Math.ceil(8 * 0.25)],
  ] as [OpenApiSchema, string, number][])('%j %s costs %d', (schema, rule, cost) => {
    expect(estimate(schema, rule)).toBe(cost);
  });

  it('multiplies by the cardinality of enclosing lists', () => {
    expect(maxCardinality([10, 5], 2)).toBe(50);
    expect(maxCardinality([10, undefined], 2)).toBe(Math.floor((3 * 1024 * 1024) / 3));
    expect(ruleCost(30, 50)).toBe(1500);
  });

  it('formats small factors as upstream does', () => {
    expect(costErrorMessage('estimated rule cost', 12_000_000, 10_000_000)).toContain('by factor of 1.200000x');
    expect(costErrorMessage('estimated rule cost', 25_000_000, 10_000_000)).toContain('by factor of 2.5x');
  });
});

describe('runtime cost', () => {
  it('charges per iteration and stays under the estimate', () => {
    const schema: OpenApiSchema = { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 64 } };
    const { env } = crdRuleEnvironment(schema, false);
    const program = compileRule(RULE, env).program!;
    const r = evaluate(program, { self: toCelValue(['a-gpu', 'b-gpu', 'c-gpu'], schema) });
    expect(r.value).toBe(true);
    expect(r.cost).toBeGreaterThan(3);
    expect(r.cost).toBeLessThanOrEqual(program.estimatedCost.max);
  });
});
