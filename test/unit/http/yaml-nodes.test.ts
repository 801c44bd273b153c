/**
 * YAML bodies are parsed once, by js-yaml, whose listener finds what go-yaml's decoder checks: repeated keys (with
 * their lines) and its alias limits. Counts below are go-yaml's: the document, then every node as it starts (each
 * key, each value, an alias and all it brings in again).
 */
import yaml from 'js-yaml';
import { decodeYaml } from '../../../src/adapters/http/media';
import { ApiError } from '../../../src/machinery/status';

const decode = (text: string) => decodeYaml(Buffer.from(text));

function refusal(text: string): string {
  try {
    decode(text);
  } catch (e) {
    if (e instanceof ApiError) return e.status.message ?? '';
    throw e;
  }
  return 'decoded';
}

describe('one parse', () => {
  test('a body with repeated keys and aliases is loaded by js-yaml once', () => {
    const load = jest.spyOn(yaml, 'load');
    try {
      const r = decode('a: &x {k: v}\nb: *x\nb: *x\nc: {d: 1, d: 2}\n');
      expect(r.duplicateFields).toEqual(['line 3: key "b" already set in map', 'line 4: key "d" already set in map']);
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      load.mockRestore();
    }
  });
});

describe('repeated keys', () => {
  test.each([
    ['block, nested: a mapping before those inside it, as go-yaml walks', 'top:\n  x: 1\n  y: {p: 1, p: 2}\n  x: 2\n', ['line 4: key "x" already set in map', 'line 3: key "p" already set in map']],
    ['flow, over lines', '{"a": 1,\n "b": {"c": 1,\n\n "c": 2}, "a": 3}', ['line 4: key "a" already set in map', 'line 4: key "c" already set in map']],
    ['quoted and plain spellings of one key', '"a": 1\n\'a\': 2\na : 3\n', ['line 2: key "a" already set in map', 'line 3: key "a" already set in map']],
    ['keys as js-yaml names them (1, 1.0 and 0x1 are all "1")', '1: a\n1.0: b\n0x1: c\n', ['line 2: key "1" already set in map', 'line 3: key "1" already set in map']],
    ['after comments and blank lines', 'a: 1 # a: 2\n\n# a: 3\n\na: "4"\n', ['line 5: key "a" already set in map']],
    ['explicit keys, with and without values', '? a\n: 1\n? a\n? b\n? b\n: 2\n', ['line 3: key "a" already set in map', 'line 5: key "b" already set in map']],
    ['flow keys without values', '{a, b: 1, a}\n', ['line 1: key "a" already set in map']],
    ['in list items, each its own map', '- a: 1\n  a: 2\n- a: 3\n', ['line 2: key "a" already set in map']],
    ['not in a block scalar, nor in flow pairs of a list', 'a: |\n  k: 1\n  k: 2\nb: [k: 1, k: 2]\n', []],
    ['`<<` is a key like any other (the core schema merges nothing)', 'base: &b {a: 1}\nm:\n  <<: *b\n  <<: *b\n', ['line 4: key "<<" already set in map']],
  ])('%s', (_, text, expected) => {
    expect(decode(text).duplicateFields).toEqual(expected);
  });

  test('the last value wins, in the first place, as upstream', () => {
    expect(Object.entries(decode('a: 1\nb: 2\na: 3\n').object as object)).toEqual([['a', 3], ['b', 2]]);
    expect(decode('base: &b {a: 1}\nm:\n  <<: *b\n').object).toEqual({ base: { a: 1 }, m: { '<<': { a: 1 } } });
  });

  test('an anchor or tag before a key, which js-yaml reads twice, is reported once', () => {
    expect(decode('&a a: b\na: c\n').duplicateFields).toEqual(['line 2: key "a" already set in map']);
    expect(decode('a: &x !!str value\nb: *x\na: 2\n').duplicateFields).toEqual(['line 3: key "a" already set in map']);
    expect(decode('!!map\n  !!str key: 1\n  !!str key: 2\n').duplicateFields).toEqual(['line 3: key "key" already set in map']);
  });

  test('a body of 100,000 repeated keys stays linear', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `k${i % 2}: ${i}`).join('\n');
    const cpu = process.cpuUsage();
    expect(decode(text).duplicateFields).toHaveLength(99_998);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(5000); // CPU ms; a quadratic check takes minutes
  });

  test('list items are not named as keys: 20,000 aliases of a list of 20,000 cost no more than their text', () => {
    const text = `big: &b [${Array(20_000).fill('x').join(', ')}]\nlist: [${Array(20_000).fill('*b').join(', ')}]\n`;
    const cpu = process.cpuUsage();
    expect(refusal(text)).toBe('error decoding YAML: yaml: document contains excessive aliasing');
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(3000); // CPU ms; naming each item joins 400 million strings: minutes
  });
});

describe("go-yaml's alias limits", () => {
  /** `a` holds 10 scalars (11 nodes), `b` 10 aliases of it (121), `c` n aliases of `b`; `replays` keyed scalars with an anchor and a tag first. */
  const doc = (n: number, replays = 0) =>
    `${Array.from({ length: replays }, (_, i) => `s${i}: &s${i} !!str v\n`).join('')}` +
    `a: &a [${Array(10).fill('x').join(', ')}]\nb: &b [${Array(10).fill('*a').join(', ')}]\nc: [${Array(n).fill('*b').join(', ')}]\n`;

  test('refused just past 99% aliased: 110 + 121n of 138 + 122n nodes', () => {
    expect(refusal(doc(121))).toBe('decoded'); // 14751 of 14900: 99.0% exactly
    expect(refusal(doc(122))).toBe('error decoding YAML: yaml: document contains excessive aliasing');
  });

  test('nodes js-yaml reads twice (an anchor and a tag before a scalar) count once: 2 nodes a line', () => {
    expect(refusal(doc(166, 5))).toBe('decoded'); // 20196 of 20400
    expect(refusal(doc(167, 5))).toBe('error decoding YAML: yaml: document contains excessive aliasing');
  });

  test('a billion laughs in a large body is refused without expanding it', () => {
    const levels = Array.from({ length: 40 }, (_, l) => `l${l + 1}: &l${l + 1} [${Array(50).fill(`*l${l}`).join(', ')}]`);
    const cpu = process.cpuUsage();
    expect(refusal(`l0: &l0 [${Array(50).fill('lol').join(', ')}]\n${levels.join('\n')}\n`)).toBe('error decoding YAML: yaml: document contains excessive aliasing');
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(2000); // CPU ms; walking what it stands for would never end
  });

  test('an anchor that contains itself, also through a value a repeated key replaced, or with its content on the next line', () => {
    expect(refusal('a: &x {k: *x, k: 1}\n')).toBe("error decoding YAML: yaml: anchor 'x' value contains itself");
    expect(refusal('k: &a\n  [*a]\n')).toBe("error decoding YAML: yaml: anchor 'a' value contains itself");
    expect(refusal('&r\nk: [1, *r]\n')).toBe("error decoding YAML: yaml: anchor 'r' value contains itself");
  });

  test('a syntax error is reported before an alias problem, as go-yaml parses before it decodes', () => {
    expect(refusal('a: &x {k: *x}\nb: [unclosed\n')).toMatch(/^error decoding YAML: unexpected end of the stream within a flow collection/);
  });
});
