/** The one scan of a JSON body: repeated keys named by dotted path as upstream's strict decoder names them, and depth. */
import { scanJsonText } from '../../../src/adapters/http/json-text';

const duplicates = (text: string) => scanJsonText(text, 1000).duplicates;

describe('scanJsonText: duplicate keys', () => {
  test.each([
    ['{"a":1,"b":2}', []],
    ['{"a":1,"a":2}', ['a']],
    ['{"metadata":{"labels":{"x":"1","y":"2","x":"3"}}}', ['metadata.labels.x']],
    ['{"a":{"b":1},"c":{"b":2}}', []],
    ['{"items":[{"n":1,"n":2},{"n":3}]}', ['items.n']],
    ['[{"k":1,"k":2}]', ['k']],
    ['{"a\\u0062":1,"ab":2}', ['ab']],
    ['{"s":"a \\" {\\"k\\":1,\\"k\\":2}","t":1}', []],
    ['{"v":"x","v":"y","w":{"v":1},"v":"z"}', ['v', 'v']],
    ['{"":1,"":2}', ['']],
    ['{"a":[1,"two",{"b":[]}],"a":null}', ['a']],
    ['{"o":{"p":{"q":1,"q":2},"p":3}}', ['o.p.q', 'o.p']],
    ['{"":{"a":1,"a":2}}', ['a']],
    ['{"":[{"a":1,"a":2}]}', ['a']],
    ['{"":{"":1,"":2}}', ['']],
    ['{"x":{"":{"a":1,"a":2}}}', ['x..a']],
    ['"just a string"', []],
    ['42', []],
    // Levels are reused as the scan goes: a closed object's keys are not the next one's.
    ['{"a":{"k":1},"b":{"k":2},"c":[{"k":3},{"k":4}]}', []],
    ['{"a":{},"b":[],"a":[{}]}', ['a']],
    // Keys after values of every kind, with white space between tokens.
    ['{ "a" : [ 1 , {"x" : "}"} ] , "b" : "]" , "a" : { } }', ['a']],
    ['{"k\\\\":1,"k\\\\":2,"k\\"":3}', ['k\\']],
    ['{"a":{"b":{"c":[[{"d":1,"d":2}]]}}}', ['a.b.c.d']],
  ])('%s', (text, expected) => {
    expect(duplicates(text)).toEqual(expected);
  });

  test('a body of 100,000 repeated keys, or of 100,000 keys, is scanned in linear time', () => {
    const text = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i % 2}":${i}`).join(',')}}`;
    const many = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(',')},"k7":0}`;
    const cpu = process.cpuUsage();
    expect(duplicates(text)).toHaveLength(99_998);
    expect(duplicates(many)).toEqual(['k7']);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(2000); // CPU ms; a quadratic scan takes minutes
  });
});

describe('scanJsonText: depth', () => {
  const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  test('nesting up to the limit passes; one more is too deep, objects and arrays alike', () => {
    expect(scanJsonText(nested(1000), 1000).tooDeep).toBe(false);
    expect(scanJsonText(nested(1001), 1000).tooDeep).toBe(true);
    const objects = (n: number) => `${'{"a":'.repeat(n - 1)}{}${'}'.repeat(n - 1)}`;
    expect(scanJsonText(objects(3), 3)).toEqual({ tooDeep: false, duplicates: [] });
    expect(scanJsonText(objects(4), 3).tooDeep).toBe(true);
  });

  test('brackets inside strings do not count, nor does depth that comes and goes', () => {
    expect(scanJsonText(`{"s":"${'['.repeat(50)}","t":[[1]],"u":[[2]]}`, 3).tooDeep).toBe(false);
    expect(scanJsonText('{"a":[[{"b":1}]]}', 3).tooDeep).toBe(true);
  });

  test('a deep body with repeated keys deep inside is refused for depth (nothing walks it)', () => {
    const deep = `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;
    expect(scanJsonText(deep, 1000)).toEqual({ tooDeep: true, duplicates: [] });
    expect(scanJsonText(deep, 2000).duplicates).toEqual([]);
  });
});
