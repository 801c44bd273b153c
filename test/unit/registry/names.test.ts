import { generateName } from '../../../src/registry/names';
import type { RandomPort } from '../../../src/ports/random.port';

describe('generateName', () => {
  it('appends five characters of the random port to the prefix, cut to 58 characters', () => {
    const picks = [0, 1, 2, 25, 26];
    const random: RandomPort = { uuid: () => 'unused', int: (below) => (expect(below).toBe(27), picks.shift()!) };
    expect(generateName('web-', random)).toBe('web-bcd89');
    const long = generateName('x'.repeat(100), { uuid: () => '', int: () => 0 });
    expect(long).toBe(`${'x'.repeat(58)}bbbbb`);
  });
});
