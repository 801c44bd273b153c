/** Duplicate keys in JSON bodies, named by dotted path as upstream's strict decoder names them. */
import { findDuplicateKeys } from '../../src/adapters/http/json-duplicates';

describe('findDuplicateKeys', () => {
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
  ])('%s', (text, expected) => {
    expect(findDuplicateKeys(text)).toEqual(expected);
  });
});
