import { SlabWriter, slabBytes } from '../../../src/registry/watch-cache/byte-slab';

describe('SlabWriter', () => {
  const object = JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x' }, data: { k: 'v'.repeat(200) } });

  it('packs a small kind into small slabs', () => {
    const w = new SlabWriter();
    for (let i = 0; i < 1000; i++) w.write(object);
    expect(w.slab.length).toBe(slabBytes);
    expect(w.slab.subarray(w.start, w.start + w.size).toString()).toBe(object);
    expect(w.slab[w.start + w.size]).toBe(0x2c);
  });

  it('moves a big kind to slabs of 32 MiB, which malloc maps on their own', () => {
    const w = new SlabWriter();
    const sizes = new Set<number>();
    while (w.written < 6 * 1024 * 1024) {
      w.write(object);
      sizes.add(w.slab.length);
    }
    expect([...sizes].sort((a, b) => a - b)).toEqual([slabBytes, 32 * 1024 * 1024]);
    expect(w.slab.subarray(w.start, w.start + w.size).toString()).toBe(object);
  });

  it('starts with a big slab when asked (a compaction of a big kind)', () => {
    const w = new SlabWriter(true);
    w.write(object);
    expect(w.slab.length).toBe(32 * 1024 * 1024);
    expect(w.written).toBe(object.length + 1);
  });

  it('gives an object too big to pack a buffer of its own', () => {
    const w = new SlabWriter();
    const big = 'x'.repeat(20_000);
    w.write(big);
    expect(w.slab.length).toBe(big.length + 1);
  });

  test('copySpliced writes the source with the insert in place, then a comma', () => {
    const w = new SlabWriter();
    w.copySpliced(Buffer.from('{"m":{}}'), 6, Buffer.from('"r":"1"'));
    expect(w.slab.toString('utf8', w.start, w.start + w.size + 1)).toBe('{"m":{"r":"1"}},');
    const big = Buffer.alloc(100_000, 0x61);
    w.copySpliced(big, 50_000, Buffer.from('XY'));
    const out = w.slab.subarray(w.start, w.start + w.size);
    expect(out.length).toBe(100_002);
    expect(out.toString('latin1', 49_999, 50_003)).toBe('aXYa');
    expect(w.slab[w.start + w.size]).toBe(0x2c);
  });
});
