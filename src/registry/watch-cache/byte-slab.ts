/**
 * Where cached object bytes live: packed one after another into slabs of our
 * own, each object followed by a comma. Node's shared Buffer pool would
 * interleave them with short-lived allocations (HTTP, gRPC), and one live
 * object would then pin a whole pool page of garbage. The comma lets a list
 * send a run of objects that sit next to each other in a slab as one slice.
 *
 * An object is addressed by (slab, start, size) rather than by a Buffer view:
 * a view costs about 100 bytes of heap, half the size of a small object.
 *
 * Slabs are small (64 KiB) until a writer has written a few MiB; then they
 * are 32 MiB. malloc places anything below its sliding mmap threshold (which
 * stops at 32 MiB) in its heap, between the short-lived buffers of requests
 * and etcd answers, and the holes those leave once freed stay resident after
 * a GC: 100,000 small objects grew the heap by about twice their size. A
 * 32 MiB slab gets a mapping of its own, whose pages become resident only as
 * they are written and go back whole when it is freed. (Its full size counts
 * as external memory in process.memoryUsage(); RSS counts what is written.)
 */
const slabSize = 64 * 1024;
const bigSlabSize = 32 * 1024 * 1024;
/** Bytes a writer writes into small slabs before it moves to big ones (and what makes a kind big for compaction). */
export const bigSlabsAfter = 4 * 1024 * 1024;
/** Bigger objects get a buffer of their own (so that one does not waste most of a slab). */
const maxPacked = slabSize / 8;
const comma = 0x2c;

export const slabBytes = slabSize;

export class SlabWriter {
  /** Where the last write went: its bytes are slab[start, start + size), then a comma. */
  slab: Buffer;
  start = 0;
  size = 0;
  /** Bytes written so far, commas included. */
  written = 0;
  private current: Buffer;
  private free = 0;

  /** `big`: start with big slabs (a compaction that rewrites more than a few MiB). */
  constructor(private readonly big = false) {
    this.current = this.slab = Buffer.allocUnsafeSlow(this.nextSize());
  }

  write(json: string): void {
    const size = Buffer.byteLength(json);
    this.reserve(size);
    this.slab.write(json, this.start);
    this.slab[this.start + size] = comma;
  }

  /** Writes a copy of src[start, start + size). */
  copy(src: Buffer, start: number, size: number): void {
    this.reserve(size);
    src.copy(this.slab, this.start, start, start + size);
    this.slab[this.start + size] = comma;
  }

  /** Writes src with `insert` placed before src[at]. */
  copySpliced(src: Buffer, at: number, insert: Buffer): void {
    const size = src.length + insert.length;
    this.reserve(size);
    src.copy(this.slab, this.start, 0, at);
    insert.copy(this.slab, this.start + at);
    src.copy(this.slab, this.start + at + insert.length, at);
    this.slab[this.start + size] = comma;
  }

  /** Points slab/start/size at room for size bytes and a comma. */
  private reserve(size: number): void {
    this.written += size + 1;
    this.size = size;
    if (size + 1 > maxPacked) {
      this.slab = Buffer.allocUnsafeSlow(size + 1);
      this.start = 0;
      return;
    }
    if (this.free + size + 1 > this.current.length) {
      this.current = Buffer.allocUnsafeSlow(this.nextSize());
      this.free = 0;
    }
    this.slab = this.current;
    this.start = this.free;
    this.free += size + 1;
  }

  private nextSize(): number {
    return this.big || this.written >= bigSlabsAfter ? bigSlabSize : slabSize;
  }
}
