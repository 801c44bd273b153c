import { run } from './run-expression';

// cel-go's ext strings (version 2, as Kubernetes 1.29+ enables it); the conformance suite's string_ext section covers edge cases.
describe('strings extension', () => {
  it.each([
    ["'hello'.charAt(1)", 'e'],
    ["'hello'.charAt(5)", ''],
    ["'hello mellow'.indexOf('ello')", 1],
    ["'hello mellow'.indexOf('ello', 2)", 7],
    ["'hello mellow'.lastIndexOf('ello')", 7],
    ["'TacoCÆt'.lowerAscii()", 'tacocÆt'],
    ["'TacoCÆt'.upperAscii()", 'TACOCÆT'],
    ["'hello hello'.replace('he', 'we')", 'wello wello'],
    ["'hello hello'.replace('he', 'we', 1)", 'wello hello'],
    ["'a,b,c'.split(',')", ['a', 'b', 'c']],
    ["'a,b,c'.split(',', 2)", ['a', 'b,c']],
    ["'tacocat'.substring(4)", 'cat'],
    ["'tacocat'.substring(0, 4)", 'taco'],
    ["'  \\ttrim\\n '.trim()", 'trim'],
    ["['a', 'b'].join()", 'ab'],
    ["['a', 'b'].join('-')", 'a-b'],
    ["'%s has %d items'.format(['list', dyn(3)])", 'list has 3 items'],
    ["'a,b,c'.split(',', 0)", []],
    ["'a,b,c'.split(',', -1)", ['a', 'b', 'c']],
    ["'abc'.split('', 2)", ['a', 'bc']],
    ["'%.2f'.format([3.14159])", '3.14'],
    ['strings.quote(\'say "hi"\')', '"say \\"hi\\""'],
  ])('%s', (expr, value) => {
    expect(run(expr)).toEqual({ value });
  });

  it.each([
    // the library's wording differs from cel-go's (`index out of range: -1`)
    ["'hello'.charAt(-1)", /out of bounds/],
    ["'tacocat'.substring(2, 1)", /start > end/],
  ])('%s fails', (expr, error) => {
    const r = run(expr);
    expect('error' in r && (r as { error: string }).error).toMatch(error);
  });

  it('needs dyn to mix types in a format list, as list literals are homogeneous', () => {
    expect(run("'%s %d'.format(['a', 1])")).toEqual({ compileError: expect.stringContaining("expected type 'string' but found 'int'") });
  });

  it('checks argument types at compile time', () => {
    expect(run("'abc'.charAt('1')")).toEqual({ compileError: expect.stringContaining("found no matching overload for 'charAt' applied to 'string.(string)'") });
  });
});
