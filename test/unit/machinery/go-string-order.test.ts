/** compareGoStrings sorts as Go compares strings (by UTF-8 bytes, lone surrogates as U+FFFD), without encoding them. */
import { compareGoStrings } from '../../../src/machinery/go-string-order';

const byBytes = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));

// Units from every range where UTF-16 and UTF-8 orders could part: ASCII, the BMP below and above the surrogates,
// both halves of surrogate pairs (alone or paired), and U+FFFD itself.
const units = ['a', 'b', '~', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uf8ff', '\ufffd', '\uffff', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\ud800\udc00'];

test('agrees with a comparison of the UTF-8 bytes on every pair of short strings from the tricky ranges', () => {
  const strings = [''];
  for (const u of units) strings.push(u);
  for (const u of units) for (const v of units) strings.push(u + v);
  for (const a of strings) for (const b of strings) expect([a, b, Math.sign(compareGoStrings(a, b))]).toEqual([a, b, byBytes(a, b)]);
});

test('sorts as Go does where UTF-16 order differs', () => {
  // U+1F600 is past U+FFFF: after U+FFFD in UTF-8, before it in UTF-16 code units.
  expect(['\ufffd', '\ud83d\ude00', 'z'].sort(compareGoStrings)).toEqual(['z', '\ufffd', '\ud83d\ude00']);
  expect(['b', 'a', 'ab', ''].sort(compareGoStrings)).toEqual(['', 'a', 'ab', 'b']);
});
