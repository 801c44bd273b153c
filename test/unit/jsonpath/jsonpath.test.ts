/** Kubernetes' JSONPath: client-go's test cases (JSON inputs), printer-column cells and CRD path checks. */
import { errorText, FieldPath } from '../../../src/machinery/field-errors';
import { customResourceTable, JSONPath, printerColumnsOrDefault, selectableFieldValue, validateSimpleJSONPath } from '../../../src/machinery/jsonpath';
import type { KObject } from '../../../src/machinery/object';

const run = (template: string, data: unknown, allowMissingKeys = false) => JSONPath.parse(template, { allowMissingKeys }).execute(data);
const fails = (template: string, data: unknown) => {
  try {
    run(template, data);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

const types = {
  integers: [1, 2, 3, 4],
  floats: [1, 2.2, 3.3, 4],
  strings: ['one', 'two', 'three', 'four'],
  interfaces: [true, 'one', 1, 1.1],
  maps: [
    { name: 'one', value: 1 },
    { name: 'two', value: 2.02 },
    { name: 'three', value: 3.03 },
    { name: 'four', value: 4.04 },
  ],
};

const store = {
  Name: 'jsonpath',
  Book: [
    { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
    { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
    { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
  ],
  Bicycle: [
    { Color: 'red', Price: 19.95, IsNew: true },
    { Color: 'green', Price: 20.01, IsNew: false },
  ],
  Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
  Employees: { jason: 'manager', dan: 'clerk' },
};

describe('client-go cases', () => {
  test.each([
    ['{ .integers[:4:2] }', types, '1 3'],
    ['{ .floats }', types, '[1,2.2,3.3,4]'],
    ['{ .floats[-2] }', types, '3.3'],
    ['{ .strings[0:2] }', types, 'one two'],
    ['{ .interfaces }', types, '[true,"one",1,1.1]'],
    ['{ .interfaces[:4:2] }', types, 'true 1'],
    ['{ .maps[1::2] }', types, '{"name":"two","value":2.02} {"name":"four","value":4.04}'],
    ['hello jsonpath', null, 'hello jsonpath'],
    ['{..}', [1, 2, 3], '[1,2,3]'],
    ['{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
    ['{"{"}', null, '{'],
    ['{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'],
    ['hello {.Name}', store, 'hello jsonpath'],
    ['{$.Labels.web/html}', store, '15'],
    ['{.Labels.k8s-app}', store, '20'],
    ['{.Bicycle[*].Color}', store, 'red green'],
    ['{range .Bicycle[*]}{ "{" }{ @.Color }{ "} " }{end}', store, '{red} {green} '],
    ['{..Price}', store, '8.95 12.99 8.99 19.95 20.01'],
    ['{.Book[-1:]}', store, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
    ['{.Bicycle[?(@.IsNew==true)].Color}', store, 'red'],
    ['{.Book[?(@.Price<9.0)].Title}', store, 'Sayings of the Centurey Moby Dick'],
  ])('%s', (template, data, expected) => {
    expect(run(template, data)).toBe(expected);
  });

  test('JSON input', () => {
    const points = [
      { id: 'i1', x: 4, y: -5 },
      { id: 'i2', x: -2, y: -5, z: 1 },
      { id: 'i5', x: 0, y: 2, z: 1 },
      { id: 'i7', x: null, y: 4 },
    ];
    expect(run('{[?(@.z)].id}', points)).toBe('i2 i5');
    expect(run("{[0]['id']}", points)).toBe('i1');
    expect(run("{[-1]['x']}", points)).toBe('null');
  });

  test('missing keys', () => {
    expect(run('{.hello}', store, true)).toBe('');
    expect(run('before-{.hello}after', store, true)).toBe('before-after');
  });

  test.each([
    ['{hello}', 'unrecognized identifier hello'],
    ['{.hello}', 'hello is not found'],
    ['{.Labels[0]}', 'map[string]interface {} is not array or slice'],
    ['{.Book[?(@.Price<>10)]}', 'unrecognized filter operator <>'],
    ['{range .Labels.*}{@}{end}{end}', 'not in range, nothing to end'],
    ['{............................................................Price}', 'invalid multiple recursive descent'],
    ['{.Book[5]}', 'array index out of bounds: index 5, length 3'],
    ['{.Book[?(@.Price==9)]}', 'incompatible types for comparison'],
    ['{.Name', 'unclosed action'],
    ['{#}', "unrecognized character in action: U+0023 '#'"],
    ['{.Book[?(@.Price<9]}', 'unterminated filter'],
    ['{[x]}', 'invalid array index x'],
  ])('%s fails with %j', (template, message) => {
    expect(fails(template, store)).toBe(message);
  });
});

describe('printer columns', () => {
  const obj = {
    apiVersion: 'example.com/v1',
    kind: 'Foo',
    metadata: { name: 'foo', creationTimestamp: '2026-01-02T03:00:05Z' },
    spec: { replicas: 3, ratio: 0.5, big: 1234567.5, enabled: true, nested: { a: [1, 'x'] }, nothing: null, when: '2026-01-02T02:04:05Z', bad: 'x' },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'Synced', status: 'False' },
      ],
    },
  } as unknown as KObject;
  const now = new Date('2026-01-02T03:04:05Z');

  test('cells follow the column type', () => {
    const { table, error } = customResourceTable([
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 1 },
      { name: 'Ratio', type: 'integer', jsonPath: '.spec.ratio' },
      { name: 'Big', type: 'string', jsonPath: '.spec.big' },
      { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' },
      { name: 'Nested', type: 'string', jsonPath: '.spec.nested' },
      { name: 'Nothing', type: 'string', jsonPath: '.spec.nothing' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.missing' },
      { name: 'When', type: 'date', jsonPath: '.spec.when' },
      { name: 'Bad', type: 'date', jsonPath: '.spec.bad' },
      { name: 'Wrong', type: 'boolean', jsonPath: '.spec.replicas' },
    ]);
    expect(error).toBeUndefined();
    expect(table.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Replicas', 'integer', 0],
      ['Ready', 'string', 1],
      ['Ratio', 'integer', 0],
      ['Big', 'string', 0],
      ['Enabled', 'boolean', 0],
      ['Nested', 'string', 0],
      ['Nothing', 'string', 0],
      ['Missing', 'string', 0],
      ['When', 'date', 0],
      ['Bad', 'date', 0],
      ['Wrong', 'boolean', 0],
    ]);
    expect(table.columns[1].description).toBe('Custom resource definition column (in JSONPath format): .spec.replicas');
    expect(table.cells(obj, now)).toEqual(['foo', 3, 'True', 0, '1.2345675e+06', true, '{"a":[1,"x"]}', '<no value>', null, '60m', '<invalid>', null]);
  });

  test('no columns: Age', () => {
    const { table } = customResourceTable(printerColumnsOrDefault([]));
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Age']);
    expect(table.cells(obj, now)).toEqual(['foo', '4m']);
  });

  test('a column that does not parse ends the table there', () => {
    const { table, error } = customResourceTable([
      { name: 'A', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'B', type: 'string', jsonPath: '.spec[' },
      { name: 'C', type: 'string', jsonPath: '.spec.x' },
    ]);
    expect(error).toBe('unrecognized column definition ".spec["');
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'A']);
  });

  test('CRD paths must start with a dot', () => {
    const p = FieldPath.root('spec').child('versions').index(0).child('additionalPrinterColumns').index(0).child('jsonPath');
    expect(validateSimpleJSONPath('.spec.x', p)).toEqual([]);
    expect(validateSimpleJSONPath('spec.x', p).map(errorText)).toEqual([
      'spec.versions[0].additionalPrinterColumns[0].jsonPath: Invalid value: "spec.x": must be a simple json path starting with .',
    ]);
  });
});

describe('selectable field values', () => {
  test('the single value, printed, or empty', () => {
    const obj = { spec: { color: 'red', size: 3, on: false, none: null } };
    expect(selectableFieldValue(obj, '.spec.color')).toBe('red');
    expect(selectableFieldValue(obj, '.spec.size')).toBe('3');
    expect(selectableFieldValue(obj, '.spec.on')).toBe('false');
    expect(selectableFieldValue(obj, '.spec.none')).toBe('');
    expect(selectableFieldValue(obj, '.spec.missing')).toBe('');
  });
});
