import { run } from './run-expression';

describe('format library (upstream library/format.go)', () => {
  it.each([
    ["format.dns1123Label().validate('my-name').hasValue()", false],
    ["format.dns1123Label().validate('My_Name').hasValue()", true],
    ["format.dns1123Label().validate('a.b').value()", ['must not contain dots']],
    ["format.dns1123Subdomain().validate('a.b').hasValue()", false],
    ["format.dns1035Label().validate('1abc').hasValue()", true],
    ["format.dns1123LabelPrefix().validate('my-prefix-').hasValue()", false],
    ["format.qualifiedName().validate('example.com/name').hasValue()", false],
    ["format.labelValue().validate('').hasValue()", false],
    ["format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()", false],
    ["format.uuid().validate('nope').value()", ['does not match the UUID format']],
    ["format.byte().validate('aGVsbG8=').hasValue()", false],
    ["format.byte().validate('aGVsbG8').value()", ['invalid base64']],
    ["format.date().validate('2021-02-30').value()", ['invalid date']],
    ["format.datetime().validate('2021-01-01T00:00:00Z').hasValue()", false],
    ["format.uri().validate('example.com').value()", ['parse "example.com": invalid URI for request']],
    ["format.named('uuid').hasValue()", true],
    ["format.named('nope').hasValue()", false],
    ["format.named('dns1123Label').value().validate('ok').hasValue()", false],
  ])('%s', (expr, value) => {
    expect(run(expr)).toEqual({ value });
  });

  it('types validate as optional(list(string))', () => {
    expect(run("format.dns1123Label().validate('x') + 1")).toEqual({
      compileError: expect.stringContaining("found no matching overload for '_+_' applied to '(optional_type(list(string)), int)'"),
    });
  });
});

describe('optionals through functions (no .? syntax in the parser)', () => {
  it.each([
    ['optional.of(1).hasValue()', true],
    ['optional.none().hasValue()', false],
    ['optional.of(2).value()', 2],
    ['optional.none().orValue(3)', 3],
    ["optional.ofNonZeroValue('').hasValue()", false],
    ['optional.none().or(optional.of(4)).value()', 4],
  ])('%s', (expr, value) => {
    expect(run(expr)).toEqual({ value });
  });

  it('fails on reading an empty optional', () => {
    expect(run('optional.none().value() == 1')).toEqual({ error: 'optional.none() dereference' });
  });
});
