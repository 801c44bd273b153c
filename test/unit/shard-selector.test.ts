/** shardSelector parsing and the 64-bit FNV-1a hash it ranges over. */
import { fnv1a64, parseShardSelector, ShardSelectorError } from '../../src/machinery/shard-selector';

/** Reference FNV-1a in BigInt, straight from the definition. */
function reference(s: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(s, 'utf8')) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h;
}

describe('fnv1a64', () => {
  test('known vectors', () => {
    expect(fnv1a64('')).toBe(0xcbf29ce484222325n);
    expect(fnv1a64('a')).toBe(0xaf63dc4c8601ec8cn);
    expect(fnv1a64('foobar')).toBe(0x85944171f73967e8n);
  });

  test('agrees with the BigInt definition on uids, namespaces and non-ASCII', () => {
    const samples = ['default', 'kube-system', 'ünïcødé', '0f8fad5b-d9cb-469f-a165-70867728950e'];
    for (let i = 0; i < 300; i++) samples.push(`${i}-${Math.random().toString(36)}-${'x'.repeat(i % 40)}`);
    for (const s of samples) expect(fnv1a64(s)).toBe(reference(s));
  });
});

describe('parseShardSelector', () => {
  test('one range: start inclusive, end exclusive', () => {
    const h = fnv1a64('abc');
    const hex = (v: bigint) => `0x${v.toString(16)}`;
    const sel = parseShardSelector(`shardRange(object.metadata.uid, '${hex(h)}', '${hex(h + 1n)}')`);
    expect(sel.field).toBe('metadata.uid');
    expect(sel.matches('abc')).toBe(true);
    expect(parseShardSelector(`shardRange(object.metadata.uid, '0x0', '${hex(h)}')`).matches('abc')).toBe(false);
  });

  test('halves of the hash space partition every value; || joins ranges', () => {
    const low = parseShardSelector("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
    const high = parseShardSelector("shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')");
    const both = parseShardSelector(
      "shardRange(object.metadata.uid, '0x0', '0x8000000000000000') || shardRange(object.metadata.uid,'0x8000000000000000','0x10000000000000000')",
    );
    for (let i = 0; i < 200; i++) {
      const v = `uid-${i}`;
      expect(low.matches(v) !== high.matches(v)).toBe(true);
      expect(both.matches(v)).toBe(true);
    }
  });

  test('namespace path', () => {
    expect(parseShardSelector("shardRange(object.metadata.namespace, '0x0', '0x10000000000000000')").field).toBe('metadata.namespace');
  });

  test.each([
    ['', /empty/],
    ["shardRange(metadata.uid, '0x0', '0x1')", /unsupported field path 'metadata.uid'/],
    ["shardRange(object.metadata.name, '0x0', '0x1')", /unsupported field path/],
    ["shardRange(object.metadata.uid, '0', '0x1')", /hexStart must be a hex string with a 0x prefix/],
    ["shardRange(object.metadata.uid, '0x0', 'zz')", /hexEnd must be a hex string/],
    ["shardRange(object.metadata.uid, '0x0', '0x20000000000000000')", /outside the hash space/],
    ["shardRange(object.metadata.uid, '0x10000000000000000', '0x10000000000000000')", /hexStart .* must be below/],
    ["shardRange(object.metadata.uid, '0x5', '0x5')", /must be less than hexEnd/],
    ["shardRange(object.metadata.uid, '0x0', '0x1') && shardRange(object.metadata.uid, '0x1', '0x2')", /cannot parse/],
    ["shardRange(object.metadata.uid, '0x0', '0x1') || shardRange(object.metadata.namespace, '0x1', '0x2')", /same field path/],
    ['shardRange(object.metadata.uid, "0x0", "0x1")', /cannot parse/],
  ])('rejects %j', (expr, message) => {
    expect(() => parseShardSelector(expr)).toThrow(ShardSelectorError);
    expect(() => parseShardSelector(expr)).toThrow(message);
  });
});
