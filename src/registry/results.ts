/**
 * What the registry answers with: an object (or a list) that is both its
 * decoded form and its JSON, each made only when asked for. Reads from the
 * watch cache hold the JSON and decode on demand; writes hold the object and
 * the bytes they stored, so that a JSON answer is those bytes with the new
 * resourceVersion written in (as a GET of it returns), never a second
 * encoding.
 */
import type { KList, KObject } from '../machinery/object';
import { withRevisionParts, type RevisionSlot } from './with-revision';

/** From this size on, a write's answer goes out in pieces rather than joined. */
const LARGE_ANSWER_BYTES = 64 * 1024;

export class ObjectResult {
  private decoded: KObject | undefined;
  private encoded: Buffer | string | undefined;
  /** A write's JSON in pieces (stored bytes around the revision), joined only if `json` is asked for. */
  private parts: readonly Buffer[] | undefined;

  private constructor(
    decoded: KObject | undefined,
    encoded: Buffer | string | undefined,
    private readonly decode: (() => KObject) | undefined,
    /** A write that created the object (PUT or apply to a missing object: 201). */
    readonly created: boolean,
  ) {
    this.decoded = decoded;
    this.encoded = encoded;
  }

  /** An object only: its JSON is encoded if asked for (dry runs, kinds stored as another kind). */
  static of(object: KObject, created = false): ObjectResult {
    return new ObjectResult(object, undefined, undefined, created);
  }

  /** JSON at hand (the watch cache's bytes): decoded only if asked for. */
  static ofJson(json: Buffer | string, decode: () => KObject): ObjectResult {
    return new ObjectResult(undefined, json, decode, false);
  }

  /**
   * A written object and the bytes it was stored as (without resourceVersion): its JSON is those bytes with the
   * revision written in. `object.metadata.resourceVersion` already holds that revision.
   */
  static ofStored(object: KObject, stored: Buffer, revision: number, created = false, slot?: RevisionSlot): ObjectResult {
    // Bytes, not a string: a large object is not decoded, spliced and encoded again for the socket, nor copied.
    const result = new ObjectResult(object, undefined, undefined, created);
    result.parts = withRevisionParts(stored, revision, slot);
    return result;
  }

  get object(): KObject {
    return (this.decoded ??= this.decode!());
  }

  /** The object's JSON, as a GET of it would return it. */
  get json(): Buffer | string {
    return (this.encoded ??= this.parts ? Buffer.concat(this.parts) : JSON.stringify(this.decoded));
  }

  /**
   * The same JSON as pieces to be written one after another: a large write's stored bytes and its revision apart
   * (joining them would copy the object once more); anything else in one piece (small pieces would each cost a
   * write and, over TLS, a record of their own, where joining them is nearly free).
   */
  get jsonParts(): readonly (Buffer | string)[] {
    const parts = this.parts;
    if (this.encoded === undefined && parts && parts[0].length + parts[2].length >= LARGE_ANSWER_BYTES) return parts;
    return [this.json];
  }
}

/** A list's head (kind, apiVersion, metadata). */
export type ListHead = Omit<KList, 'items'>;

/**
 * A list, with its items decoded or as JSON (the items joined by commas, in pieces, ready to be written between a
 * head and a tail), each made only when asked for.
 */
export class ListResult implements ListHead {
  readonly kind: string;
  readonly apiVersion: string;
  readonly metadata: KList['metadata'];
  private decoded: KObject[] | undefined;
  private encoded: Buffer[] | undefined;

  constructor(head: ListHead, items: { decoded?: KObject[]; decode?: () => KObject[]; encoded?: Buffer[]; encode?: () => Buffer[] }) {
    this.kind = head.kind;
    this.apiVersion = head.apiVersion;
    this.metadata = head.metadata;
    this.decoded = items.decoded;
    this.encoded = items.encoded;
    this.decodeItems = items.decode;
    this.encodeItems = items.encode;
  }

  private readonly decodeItems: (() => KObject[]) | undefined;
  private readonly encodeItems: (() => Buffer[]) | undefined;

  get items(): KObject[] {
    return (this.decoded ??= this.decodeItems ? this.decodeItems() : []);
  }

  /** The items' JSON, joined by commas, in pieces. */
  get body(): Buffer[] {
    return (this.encoded ??= this.encodeItems ? this.encodeItems() : joinJson(this.items.map((o) => JSON.stringify(o))));
  }

  /** The list as one plain value (for encoders other than the JSON byte stream). */
  toJSON(): KList {
    return { kind: this.kind, apiVersion: this.apiVersion, metadata: this.metadata, items: this.items };
  }
}

/** Items' JSON per piece of a list's body: one Buffer per item costs more than copying the item into a piece. */
const pieceChars = 64 * 1024;

/** JSON texts joined by commas into pieces of about pieceChars. */
export function joinJson(texts: string[]): Buffer[] {
  const body: Buffer[] = [];
  let piece: string[] = [];
  let chars = 0;
  for (const json of texts) {
    piece.push(json);
    chars += json.length;
    if (chars >= pieceChars) {
      body.push(Buffer.from((body.length ? ',' : '') + piece.join(',')));
      piece = [];
      chars = 0;
    }
  }
  if (piece.length) body.push(Buffer.from((body.length ? ',' : '') + piece.join(',')));
  return body;
}
