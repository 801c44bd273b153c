/** uniqueStrings keeps the first of each string in order, long ones (which V8 hashes by length alone) included. */
import { uniqueStrings } from '../../../src/machinery/unique-strings';

test('the first of each string, in order', () => {
  expect(uniqueStrings(['b', 'a', 'b', '', 'a', ''])).toEqual(['b', 'a', '']);
});

test('long strings of one length are told apart by their content, and repeats of them dropped', () => {
  const long = (c: string, at: number) => 'x'.repeat(20_000).slice(0, at) + c + 'x'.repeat(20_000).slice(at + 1);
  const values = [long('a', 5), long('b', 5), long('a', 5), long('a', 19_999), long('b', 5), 'short'];
  expect(uniqueStrings(values)).toEqual([long('a', 5), long('b', 5), long('a', 19_999), 'short']);
  const many = Array.from({ length: 2000 }, (_, i) => `${String(i).padStart(5, '0')}${'y'.repeat(16_400)}`);
  expect(uniqueStrings([...many, ...many])).toEqual(many);
});
