/**
 * jsonView, the converted-as-read form of untyped JSON that admission policies see: every
 * expression answers as it does over the eagerly converted copy (celValue(toCelValue(x))).
 */
import * as cel from '../../../src/machinery/cel';

const object = {
  metadata: { name: 'app', labels: { tier: 'web', empty: '' }, annotations: null, generation: 3, managedFields: [{ manager: 'kubectl', fieldsV1: { 'f:data': {} } }] },
  data: { a: '1', b: '2' },
  spec: { ratio: 0.5, replicas: 2, ports: [80, 443], nested: [{ x: 1 }, { x: 2.5 }], flag: true, gone: null },
};

const expressions = [
  'object.metadata.name.size() < 300',
  "has(object.metadata.labels) && 'tier' in object.metadata.labels",
  'has(object.metadata.annotations)',
  'has(object.spec.gone)',
  "'gone' in object.spec",
  'object.metadata.generation == 3 && type(object.metadata.generation) == int',
  'type(object.spec.ratio) == double && object.spec.ratio < 1.0',
  'object.spec.ports.all(p, p > 0) && object.spec.ports.size() == 2',
  'object.spec.nested.map(n, n.x)',
  "object.data == {'a': '1', 'b': '2'}",
  'object.data.size()',
  'object.data.all(k, object.data[k] != "")',
  "object.metadata.labels.filter(k, object.metadata.labels[k] == '')",
  'object.metadata.managedFields[0].fieldsV1',
  'object.spec',
  "object.metadata.missing.x",
  'object.spec.flag == true',
];

describe('jsonView', () => {
  const env = cel.admissionPolicyEnvironment();
  it.each(expressions)('%s answers as over the converted copy', (source) => {
    const { program, error } = cel.compileRule(source, env);
    expect(error).toBeUndefined();
    const run = (o: cel.CelValue) => {
      const r = cel.evaluate(program!, { object: o });
      return { value: cel.fromCelValue(r.value), error: r.error, cost: r.cost };
    };
    expect(run(cel.jsonView(object))).toEqual(run(cel.celValue(cel.toCelValue(object))));
  });
});
