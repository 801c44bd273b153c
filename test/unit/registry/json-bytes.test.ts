/** jsonBytes gives the UTF-8 of JSON.stringify's text, byte for byte, whatever the object holds. */
import { jsonBytes } from '../../../src/registry/json-bytes';

const long = (c: string, n = 5000) => c.repeat(n);
const expected = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8');

const cases: Array<[string, unknown]> = [
  ['a small object', { a: 1, b: 'x', c: [1, 'y', null], d: { e: true } }],
  ['a long plain value', { data: { a: long('a'), b: 'short' } }],
  ['long values needing escapes', { data: { q: long('"'), s: long('\\'), n: `${long('a')}\n`, t: `${long('b')}\t`, c: `${long('c')}\u0001` } }],
  ['long non-ASCII values', { data: { e: long('é'), emoji: long('😀', 3000), mixed: `${long('a')}é` } }],
  ['a long value with a lone surrogate', { data: { x: `${long('a')}\ud800`, y: `\udc00${long('b')}` } }],
  ['long strings in arrays and as the whole', [long('a'), 'x', [long('b')], { k: long('c') }]],
  ['left-out values beside long strings', { u: undefined, f: () => 1, a: long('a'), s: Symbol('s'), b: [undefined, long('b'), () => 2], n: NaN, i: Infinity, z: -0 }],
  ['keys that need escapes and integer-like keys', { 'q"k': long('a'), '2': 'two', '1': long('b'), 'é': 'x', '': long('c') }],
  ['dates (toJSON) beside long strings', { when: new Date(0), a: long('a'), nested: { when: new Date(1000), b: long('b') } }],
  ['the first and last keys left out', { u: undefined, a: long('a'), v: undefined }],
  ['a long string alone', long('z')],
  ['each control character, and DEL, in a long ASCII value', Object.fromEntries(Array.from({ length: 0x21 }, (_, c) => [`k${c}`, `${long('a')}${String.fromCharCode(c === 0x20 ? 0x7f : c)}${long('b', 10)}`]))],
  ['characters past Latin-1 whose low byte is plain ASCII (a Latin-1 copy would keep only that byte)', { a: `${long('a')}\u0141`, b: `\u2261${long('b')}`, c: `${long('c')}\u4e41${long('c')}` }],
  ['empty containers beside long strings', { a: {}, b: [], c: long('c'), d: { e: {} } }],
  ['holes in arrays beside long strings (null, as JSON.stringify writes them)', { a: [long('a'), , 3], b: [, long('b')], c: Object.assign(new Array(3), { 1: long('c') }) }],
];

test.each(cases)('%s', (_name, value) => {
  expect(jsonBytes(value)!.equals(expected(value))).toBe(true);
});

test('values JSON.stringify has no text for give undefined', () => {
  expect(jsonBytes(undefined)).toBeUndefined();
  expect(jsonBytes(() => 1)).toBeUndefined();
});

test('random objects with long strings encode as JSON.stringify does', () => {
  let seed = 42;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '\n', 'é', '😀', '\u2028', '\ud800', '~', '{'];
  const str = (): string => {
    const n = rnd(3) === 0 ? 4096 + rnd(3000) : rnd(20);
    const base = alphabet[rnd(alphabet.length)];
    let s = base.repeat(Math.max(1, Math.floor(n / base.length)));
    if (rnd(2)) s = s.slice(0, rnd(s.length + 1)) + alphabet[rnd(alphabet.length)] + s;
    return s;
  };
  const value = (depth: number): unknown => {
    switch (depth > 3 ? rnd(4) : rnd(7)) {
      case 0: return str();
      case 1: return rnd(1000) - 500;
      case 2: return [null, true, false, undefined][rnd(4)];
      case 3: return str();
      case 4: return Array.from({ length: rnd(4) }, () => value(depth + 1));
      default: return Object.fromEntries(Array.from({ length: rnd(5) }, () => [str().slice(0, 8), value(depth + 1)]));
    }
  };
  for (let i = 0; i < 300; i++) {
    const v = { root: value(0), other: value(0) };
    expect(jsonBytes(v)!.equals(expected(v))).toBe(true);
  }
});
