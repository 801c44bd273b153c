/**
 * Where cached object bytes live: packed one after another into slabs of our
 * own, each object followed by a comma. Node's shared Buffer pool would
 * interleave them with short-lived allocations (HTTP, gRPC), and one live
 * object would then pin a whole pool page of garbage. The comma lets a list
 * send a run of objects that sit next to each other in a slab as one slice.
 *
 * An object is addressed by (slab, start, size) rather than by a Buffer view:
 * a view costs about 100 bytes of heap, half the size of a small object.
 */
const slabSize = 64 * 1024;
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

  constructor() {
    this.current = this.slab = Buffer.allocUnsafeSlow(slabSize);
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

  /** Points slab/start/size at room for size bytes and a comma. */
  private reserve(size: number): void {
    this.written += size + 1;
    this.size = size;
    if (size + 1 > maxPacked) {
      this.slab = Buffer.allocUnsafeSlow(size + 1);
      this.start = 0;
      return;
    }
    if (this.free + size + 1 > slabSize) {
      this.current = Buffer.allocUnsafeSlow(slabSize);
      this.free = 0;
    }
    this.slab = this.current;
    this.start = this.free;
    this.free += size + 1;
  }
}
