/**
 * Records of a byte stream that arrive cut and joined at any byte, each a header of fixed size that gives the length
 * of the payload after it: HTTP/2's frames on the connection, and gRPC's messages in a stream's DATA.
 *
 * A record inside one chunk is handed on as views of it. One spread over several is copied, as its chunks arrive,
 * into a buffer of its own size (its header says how big), so no chunk outlives its read. A large answer (the watch
 * cache's initial list) would otherwise keep every socket read buffer it came in until the end, long enough for V8 to
 * move them to the old generation, where they wait for a full GC and leave malloc's heap full of holes.
 */
export class LengthPrefixedReader {
  /** Header bytes of a record cut inside or just after its header (made when first needed: one reader per call). */
  private headBuffer: Buffer | undefined;
  private headBytes = 0;
  /** The payload being filled, and how much of it is there. */
  private pending: Buffer | undefined;
  private filled = 0;

  /**
   * `payloadLength` reads a whole header at `at`: the payload's length, or a complaint about the header. With
   * `copyWhole`, a record inside one chunk is copied out too, for chunks whose memory is reused after the call.
   */
  constructor(
    private readonly headerBytes: number,
    private readonly payloadLength: (bytes: Buffer, at: number) => number | string,
    private readonly copyWhole = false,
  ) {}

  private get head(): Buffer {
    return (this.headBuffer ??= Buffer.alloc(this.headerBytes));
  }

  /** Calls emit for each whole record (its header at `at` in `header`); returns a complaint for one it cannot read. */
  push(chunk: Buffer, emit: (header: Buffer, at: number, payload: Buffer) => void): string | undefined {
    let at = 0;
    while (at < chunk.length) {
      if (!this.pending) {
        let length: number | string;
        if (this.headBytes === 0 && chunk.length - at >= this.headerBytes) {
          length = this.payloadLength(chunk, at);
          if (typeof length === 'string') return length;
          const start = at + this.headerBytes;
          if (chunk.length - start >= length) {
            const payload = chunk.subarray(start, start + length);
            emit(chunk, at, this.copyWhole ? copyOf(payload) : payload);
            at = start + length;
            continue;
          }
          chunk.copy(this.head, 0, at, start);
          at = start;
        } else {
          const n = Math.min(this.headerBytes - this.headBytes, chunk.length - at);
          chunk.copy(this.head, this.headBytes, at, at + n);
          this.headBytes += n;
          at += n;
          if (this.headBytes < this.headerBytes) return undefined;
          this.headBytes = 0;
          length = this.payloadLength(this.head, 0);
          if (typeof length === 'string') return length;
        }
        this.pending = Buffer.allocUnsafeSlow(length);
        this.filled = 0;
      }
      const n = Math.min(this.pending.length - this.filled, chunk.length - at);
      chunk.copy(this.pending, this.filled, at, at + n);
      this.filled += n;
      at += n;
      if (this.filled === this.pending.length) {
        const payload = this.pending;
        this.pending = undefined;
        emit(this.head, 0, payload);
      }
    }
    return undefined;
  }
}

/**
 * A copy: a small one in node's shared pool, a larger one in a buffer of its own. Nothing keeps a small message (the
 * watch cache copies what it stores into its slabs; answers are decoded and dropped), and a buffer of its own cost an
 * allocation outside V8's heap for every answer and every watch event, about three times the pool's.
 */
function copyOf(bytes: Buffer): Buffer {
  const out = bytes.length < Buffer.poolSize >>> 1 ? Buffer.allocUnsafe(bytes.length) : Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(out);
  return out;
}
