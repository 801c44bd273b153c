import { escapeFieldValue, FieldSelector, FieldSelectorError, parseFieldSelector, unescapeFieldValue } from '../../../src/machinery/fields';

const getter = (o: Record<string, string>) => (f: string) => o[f];

describe('parseFieldSelector', () => {
  it('parses =, == and != terms (sorted, as upstream)', () => {
    const s = parseFieldSelector('metadata.name=foo,spec.x!=y,status.phase==Running');
    expect(s.requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'foo' },
      { field: 'spec.x', operator: '!=', value: 'y' },
      { field: 'status.phase', operator: '=', value: 'Running' },
    ]);
    expect(s.toString()).toBe('metadata.name=foo,spec.x!=y,status.phase=Running');
    expect(parseFieldSelector('b=1,a=2').toString()).toBe('a=2,b=1');
  });

  it('empty selectors and empty terms', () => {
    expect(parseFieldSelector('').isEmpty()).toBe(true);
    expect(parseFieldSelector(',,').requirements).toEqual([]);
    expect(parseFieldSelector('a=').requirements).toEqual([{ field: 'a', operator: '=', value: '' }]);
  });

  it('does not trim whitespace', () => {
    expect(parseFieldSelector('a = b').requirements).toEqual([{ field: 'a ', operator: '=', value: ' b' }]);
  });

  it('unescapes values', () => {
    expect(parseFieldSelector('a=x\\,y\\=z\\\\').requirements).toEqual([{ field: 'a', operator: '=', value: 'x,y=z\\' }]);
    expect(parseFieldSelector('a=x\\,y').toString()).toBe('a=x\\,y');
    expect(unescapeFieldValue(escapeFieldValue('a\\b,c=d'))).toBe('a\\b,c=d');
  });

  it('reports upstream errors', () => {
    expect(() => parseFieldSelector('a=b,foo')).toThrow(new FieldSelectorError("invalid selector: 'a=b,foo'; can't understand 'foo'"));
    expect(() => parseFieldSelector('a=b=c')).toThrow('invalid field selector: unescaped character in value: 61');
    expect(() => parseFieldSelector('a=b\\n')).toThrow('invalid field selector: invalid escape sequence: \\n');
    expect(() => parseFieldSelector('a=b\\')).toThrow('invalid field selector: invalid escape sequence: \\');
  });

  it('splits at the leftmost operator', () => {
    expect(parseFieldSelector('a==b').requirements[0]).toEqual({ field: 'a', operator: '=', value: 'b' });
    expect(() => parseFieldSelector('a=!=b')).toThrow('invalid field selector: unescaped character in value: 61');
    expect(parseFieldSelector('a!=\\=b').requirements[0]).toEqual({ field: 'a', operator: '!=', value: '=b' });
  });
});

describe('FieldSelector matching', () => {
  it('matches with a getter; missing fields read as empty', () => {
    const s = parseFieldSelector('metadata.name=foo,spec.x!=y');
    expect(s.matches(getter({ 'metadata.name': 'foo' }))).toBe(true);
    expect(s.matches(getter({ 'metadata.name': 'foo', 'spec.x': 'y' }))).toBe(false);
    expect(s.matches(getter({ 'metadata.name': 'bar' }))).toBe(false);
    expect(parseFieldSelector('a=').matches(getter({}))).toBe(true);
    expect(parseFieldSelector('').matches(getter({}))).toBe(true);
    expect(FieldSelector.nothing().matches(getter({}))).toBe(false);
  });

  it('requiresExactMatch and transform', () => {
    const s = parseFieldSelector('metadata.name=foo,metadata.namespace!=x');
    expect(s.requiresExactMatch('metadata.name')).toBe('foo');
    expect(s.requiresExactMatch('metadata.namespace')).toBeUndefined();
    const t = s.transform((f, v) => (f === 'metadata.namespace' ? ['', ''] : [f.toUpperCase(), v]));
    expect(t.toString()).toBe('METADATA.NAME=foo');
    expect(() =>
      s.transform((f) => {
        throw new Error(`field label not supported: ${f}`);
      }),
    ).toThrow('field label not supported: metadata.name');
  });
});
