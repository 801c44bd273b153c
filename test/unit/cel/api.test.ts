import * as cel from '../../../src/machinery/cel';

describe('the module entry point', () => {
  it('compiles and evaluates a CRD rule end to end', () => {
    const schema: cel.OpenApiSchema = { type: 'object', properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } } };
    const { env } = cel.crdRuleEnvironment(schema, false);
    const { program, error } = cel.compileRule('self.replicas <= self.maxReplicas', env, { resultType: cel.T.bool });
    expect(error).toBeUndefined();
    expect(program!.estimatedCost.max).toBeLessThan(cel.STATIC_ESTIMATED_COST_LIMIT);
    expect(cel.evaluate(program!, { self: cel.toCelValue({ replicas: 6, maxReplicas: 5 }, schema) }).value).toBe(false);
  });

  it('compiles admission policy expressions over dyn variables', () => {
    const env = cel.admissionPolicyEnvironment();
    const { program } = cel.compileRule("object.metadata.name.startsWith('a') && request.operation == 'CREATE'", env);
    const activation = { object: cel.toCelValue({ metadata: { name: 'abc' } }), request: cel.toCelValue({ operation: 'CREATE' }) };
    expect(cel.evaluate(program!, activation).value).toBe(true);
    expect(cel.compileRule('nope == 1', env).error).toContain("undeclared reference to 'nope'");
  });
});
