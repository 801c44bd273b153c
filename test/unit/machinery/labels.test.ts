import { FieldPath } from '../../../src/machinery/field-errors';
import { LabelSelector, LabelSelectorError, newRequirement, parseLabelSelector } from '../../../src/machinery/labels';
import { LABEL_VALUE_MSG, QNAME_NAME_MSG } from './messages';

const parseError = (s: string, path?: FieldPath): string => {
  try {
    parseLabelSelector(s, path);
  } catch (e) {
    expect(e).toBeInstanceOf(LabelSelectorError);
    return (e as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(s)} to fail`);
};

describe('parseLabelSelector: syntax', () => {
  it.each([
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['', ''],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['!x', '!x'],
    ['x>1', 'x>1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['x==a', 'x==a'],
    ['b=1,a=2', 'a=2,b=1'],
    ['a in (c,b,b)', 'a in (b,c)'],
    ['a notin ()', 'a notin ()'],
    ['a in (,b)', 'a in (,b)'],
    ['a in (b,)', 'a in (,b)'],
    ['in=x', 'in=x'],
    ['a in (in, notin)', 'a in (in,notin)'],
    ['  a  !=  b ,\tc ', 'a!=b,c'],
    ['example.com/k=v', 'example.com/k=v'],
  ])('%j parses to %j', (input, canonical) => {
    expect(parseLabelSelector(input).toString()).toBe(canonical);
  });

  it('records operators and sorted, de-duplicated values', () => {
    expect(parseLabelSelector('b notin (z,y,z),a').requirements).toEqual([
      { key: 'a', operator: 'exists', values: [] },
      { key: 'b', operator: 'notin', values: ['y', 'z'] },
    ]);
    expect(parseLabelSelector('!a').requirements).toEqual([{ key: 'a', operator: '!', values: [] }]);
  });
});

describe('parseLabelSelector: errors', () => {
  it.each([
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a=b,', "found '', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in (=', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${LABEL_VALUE_MSG}`],
    ['x=a.b c', "found 'c', expected: ',' or 'end of string'"],
    ['a>b', `unable to parse requirement: values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['a=b_', `unable to parse requirement: values[0][a]: Invalid value: "b_": ${LABEL_VALUE_MSG}`],
    ['a<-5', `unable to parse requirement: values[0][a]: Invalid value: "-5": ${LABEL_VALUE_MSG}`],
    [
      'a>b_',
      `unable to parse requirement: [values[0]: Invalid value: "b_": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "b_": ${LABEL_VALUE_MSG}]`,
    ],
    ['a_=b', `unable to parse requirement: <nil>: Invalid value: "a_": ${QNAME_NAME_MSG}`],
  ])('%j fails with %j', (input, message) => {
    expect(parseError(input)).toBe(message);
  });

  it('threads a field path', () => {
    const p = FieldPath.root('spec').child('selector');
    expect(parseError('a_', p)).toBe(`unable to parse requirement: spec.selector: Invalid value: "a_": ${QNAME_NAME_MSG}`);
    expect(parseError('a=b c d', p)).toBe("found 'c', expected: ',' or 'end of string'");
    expect(parseError('a=b_', p)).toBe(`unable to parse requirement: spec.selector.values[0][a]: Invalid value: "b_": ${LABEL_VALUE_MSG}`);
  });
});

describe('matching', () => {
  const m = (sel: string, labels?: Record<string, string>) => parseLabelSelector(sel).matches(labels);

  it('equality and sets', () => {
    expect(m('a=b', { a: 'b' })).toBe(true);
    expect(m('a==b', { a: 'c' })).toBe(false);
    expect(m('a=b', {})).toBe(false);
    expect(m('a=', { a: '' })).toBe(true);
    expect(m('a in (x,y)', { a: 'y' })).toBe(true);
    expect(m('a in (x,y)', undefined)).toBe(false);
  });

  it('!= and notin match objects without the key', () => {
    expect(m('a!=b', {})).toBe(true);
    expect(m('a!=b', { a: 'c' })).toBe(true);
    expect(m('a!=b', { a: 'b' })).toBe(false);
    expect(m('a notin (x)', {})).toBe(true);
    expect(m('a notin (x)', { a: 'x' })).toBe(false);
  });

  it('existence', () => {
    expect(m('a', { a: '' })).toBe(true);
    expect(m('a', {})).toBe(false);
    expect(m('!a', {})).toBe(true);
    expect(m('!a', { a: 'x' })).toBe(false);
    expect(m('toString', {})).toBe(false);
  });

  it('gt and lt compare integers', () => {
    expect(m('a>5', { a: '6' })).toBe(true);
    expect(m('a>5', { a: '5' })).toBe(false);
    expect(m('a<5', { a: '-1' })).toBe(true);
    expect(m('a>5', { a: 'x' })).toBe(false);
    expect(m('a>5', {})).toBe(false);
    expect(m('a>9223372036854775806', { a: '9223372036854775807' })).toBe(true);
    expect(m('a>1', { a: '9223372036854775808' })).toBe(false);
  });

  it('AND of all requirements; the empty selector matches everything', () => {
    expect(m('a=b,c', { a: 'b', c: '' })).toBe(true);
    expect(m('a=b,c', { a: 'b' })).toBe(false);
    expect(m('', {})).toBe(true);
    expect(parseLabelSelector('').isEmpty()).toBe(true);
    expect(LabelSelector.nothing().matches({})).toBe(false);
  });

  it('requiresExactMatch', () => {
    expect(parseLabelSelector('a=b,c!=d').requiresExactMatch('a')).toBe('b');
    expect(parseLabelSelector('a in (b)').requiresExactMatch('a')).toBe('b');
    expect(parseLabelSelector('a in (b,c)').requiresExactMatch('a')).toBeUndefined();
    expect(parseLabelSelector('a=b,c!=d').requiresExactMatch('c')).toBeUndefined();
  });
});

describe('newRequirement', () => {
  it('reports upstream NewRequirement errors', () => {
    expect(() => newRequirement('x', 'in', [])).toThrow(`values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty`);
    expect(() => newRequirement('x', '=', ['a', 'b'])).toThrow(
      'values: Invalid value: []string{"a", "b"}: exact-match compatibility requires one single value',
    );
    expect(() => newRequirement('x', 'exists', ['a'])).toThrow(
      'values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist',
    );
    expect(() => newRequirement('x', 'gt', [])).toThrow(`values: Invalid value: []string(nil): for 'Gt', 'Lt' operators, exactly one value is required`);
    expect(() => newRequirement('x', 'bad' as never, [])).toThrow(
      'operator: Unsupported value: "bad": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    );
    expect(() => newRequirement('a'.repeat(64), 'exists', [])).toThrow('key: Invalid value: ');
  });
});
