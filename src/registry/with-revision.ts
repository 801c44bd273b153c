/**
 * The stored JSON with metadata.resourceVersion added, written into the text
 * rather than by encoding the decoded object again: storage holds objects as
 * this server encoded them (without resourceVersion), so adding the member
 * before the `}` that closes metadata gives the very bytes JSON.stringify
 * would, at a fraction of the cost (every object the watch cache takes in,
 * and every item of a list read from storage and sent as bytes).
 */

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;

/** Undefined when the text is not in the expected shape (the caller encodes the object instead). */
export function withRevision(text: string, metadata: object, rev: number): string | undefined {
  if ('resourceVersion' in metadata) return undefined;
  return insertRevision(text, hasMembers(metadata), rev);
}

/** withRevision for a caller that has checked the decoded metadata itself: `members`, whether it has any. */
export function insertRevision(text: string, members: boolean, rev: number): string | undefined {
  const end = metadataEnd(text);
  if (end < 0) return undefined;
  return `${text.slice(0, end)}${members ? ',' : ''}"resourceVersion":"${rev}"${text.slice(end)}`;
}

/** insertRevision for stored text whose decoded metadata is not at hand: whether metadata has members is read off the text. */
export function insertRevisionInText(text: string, rev: number): string | undefined {
  const end = metadataEnd(text);
  if (end < 0) return undefined;
  let before = end - 1;
  while (before >= 0 && text.charCodeAt(before) <= 0x20) before--;
  return `${text.slice(0, end)}${text.charCodeAt(before) === 0x7b ? '' : ','}"resourceVersion":"${rev}"${text.slice(end)}`;
}

/** Where stored bytes take metadata.resourceVersion: before the `}` at `at`, after a comma when metadata has members. */
export interface RevisionSlot {
  readonly at: number;
  readonly comma: boolean;
}

/**
 * The revision's slot in stored bytes (insertRevisionInText without a string), undefined when the bytes are not in
 * the expected shape. A write finds it once (encoded-objects.ts) for its answer and for the watch cache's copy.
 */
export function revisionSlot(bytes: Buffer): RevisionSlot | undefined {
  const end = metadataEndInBytes(bytes);
  if (end < 0) return undefined;
  let before = end - 1;
  while (before >= 0 && bytes[before] <= 0x20) before--;
  return { at: end, comma: bytes[before] !== 0x7b };
}

/** The member that goes into the slot for revision `rev`. */
export function revisionMember(slot: RevisionSlot, rev: number): Buffer {
  return Buffer.from(`${slot.comma ? ',' : ''}"resourceVersion":"${rev}"`);
}

/**
 * Where the member goes and what goes there, so that a caller copies the bytes around it instead of decoding them to
 * a string and encoding the result again (large objects). Undefined when the bytes are not in the expected shape.
 */
export function revisionInsertAt(bytes: Buffer, rev: number, slot = revisionSlot(bytes)): { at: number; insert: Buffer } | undefined {
  return slot && { at: slot.at, insert: revisionMember(slot, rev) };
}

/**
 * The stored bytes with metadata.resourceVersion written in (insertRevisionInText without a string), as the three
 * pieces that make them: a socket takes them as they are, where joining them would copy a large object once more.
 */
export function withRevisionParts(bytes: Buffer, rev: number, slot = revisionSlot(bytes)): [Buffer, Buffer, Buffer] | undefined {
  return slot && [bytes.subarray(0, slot.at), revisionMember(slot, rev), bytes.subarray(slot.at)];
}

export function hasMembers(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/**
 * Index of the `}` that closes the top-level "metadata" object; -1 when there
 * is none, when it is there twice, or when a top-level key is escaped (then
 * which member JSON.parse kept is not plain to see).
 */
export function metadataEnd(text: string): number {
  let depth = 0;
  let metaDepth = -1;
  let end = -1;
  let keyStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      const start = i;
      i = stringEnd(text, start);
      if (depth !== 1) continue;
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) <= 0x20) j++;
      if (text.charCodeAt(j) !== colon) continue; // a value, not a key
      for (let k = start + 1; k < i; k++) if (text.charCodeAt(k) === backslash) return -1; // an escaped key (keys are short)
      keyStart = text.startsWith('"metadata"', start) && i === start + 9 ? start : -1;
      if (keyStart >= 0 && (metaDepth >= 0 || end >= 0)) return -1;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth === 2 && keyStart >= 0) metaDepth = c === 0x7b ? 2 : -1;
      keyStart = -1;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 2 && metaDepth === 2) {
        end = i;
        metaDepth = -1;
      }
      depth--;
    }
  }
  return end;
}

/**
 * Index of the quote that closes the string opening at `start` (text.length when it is not closed). Found with
 * indexOf, not char by char: the long values of an object (data, annotations) are most of its text.
 */
function stringEnd(text: string, start: number): number {
  for (let from = start + 1; ; ) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    // Escaped when an odd run of backslashes stands before it.
    let b = q - 1;
    while (text.charCodeAt(b) === backslash) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    from = q + 1;
  }
}

/** metadataEnd over UTF-8 bytes (its structural characters are ASCII, never part of a multi-byte character). */
export function metadataEndInBytes(bytes: Buffer): number {
  let depth = 0;
  let metaDepth = -1;
  let end = -1;
  let keyStart = -1;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === quote) {
      const start = i;
      i = bytesStringEnd(bytes, start);
      if (depth !== 1) continue;
      let j = i + 1;
      while (j < bytes.length && bytes[j] <= 0x20) j++;
      if (bytes[j] !== colon) continue;
      for (let k = start + 1; k < i; k++) if (bytes[k] === backslash) return -1;
      keyStart = i === start + 9 && metadataKey.compare(bytes, start, start + 10) === 0 ? start : -1;
      if (keyStart >= 0 && (metaDepth >= 0 || end >= 0)) return -1;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth === 2 && keyStart >= 0) metaDepth = c === 0x7b ? 2 : -1;
      keyStart = -1;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 2 && metaDepth === 2) {
        end = i;
        metaDepth = -1;
      }
      depth--;
    }
  }
  return end;
}

const metadataKey = Buffer.from('"metadata"');

function bytesStringEnd(bytes: Buffer, start: number): number {
  for (let from = start + 1; ; ) {
    const q = bytes.indexOf(quote, from);
    if (q < 0) return bytes.length;
    let b = q - 1;
    while (bytes[b] === backslash) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    from = q + 1;
  }
}
