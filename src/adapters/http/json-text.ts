/**
 * JSON text read as text, for what JSON.parse does not tell: how deeply a body nests and which object keys it
 * repeats (upstream's strict decoder reports them; JSON.parse keeps the last silently). One pass over text that
 * JSON.parse accepted: strings are skipped with indexOf, since their content (data, annotations) is most of a body.
 * (The revision splice in registry/with-revision.ts skips strings its own way: sharing one function between the
 * two made the splice, which runs on every object the watch cache takes in, a third slower; so this stays here.)
 */

const quote = 0x22;

export interface JsonTextScan {
  /** Objects and arrays nest deeper than the limit (the scan stopped there, duplicates unread). */
  tooDeep: boolean;
  /** Each repeated key by dotted path (`metadata.labels.a`), as upstream's strict decoder names it. */
  duplicates: string[];
}

/** An open object or array; reused for every collection opened at its depth. */
interface Level {
  object: boolean;
  /** The object's keys so far; a Set once there are many, so that a body of repeated keys stays linear. */
  keys: string[];
  set: Set<string> | undefined;
  /** The key last read in this object: its member holds the next level. */
  last: string;
}

const setFrom = 16;

/** Depth and duplicate keys of JSON text that JSON.parse has accepted, in one pass. */
export function scanJsonText(text: string, maxDepth: number): JsonTextScan {
  const duplicates: string[] = [];
  const levels: Level[] = [];
  let depth = 0;
  let expectKey = false;
  // The first backslash at or after `slash`'s last lookup, looked up again only once a string passes it: so a
  // string is skipped with indexOf alone, and the text is searched for backslashes once in all.
  let slash = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      let end = text.length;
      let escaped = false;
      for (let from = i + 1; ; ) {
        const q = text.indexOf('"', from);
        if (q < 0) break;
        if (slash < from) {
          const next = text.indexOf('\\', from);
          slash = next < 0 ? text.length : next; // none: past any quote
        }
        if (slash > q) {
          end = q;
          break;
        }
        escaped = true;
        from = slash + 2; // past the escaped character, a quote or not
      }
      if (expectKey) {
        expectKey = false;
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        const level = levels[depth - 1];
        if (seen(level, key)) duplicates.push(pathOf(levels, depth, key));
        level.last = key;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth) return { tooDeep: true, duplicates: [] };
      const object = c === 0x7b;
      const level = levels[depth - 1];
      if (level) {
        level.object = object;
        level.keys.length = 0;
        level.set = undefined;
      } else levels.push({ object, keys: [], set: undefined, last: '' });
      expectKey = object;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = depth > 0 && levels[depth - 1].object;
    }
  }
  return { tooDeep: false, duplicates };
}

/** Whether the object at `level` had `key` already; records it. */
function seen(level: Level, key: string): boolean {
  if (level.set) {
    if (level.set.has(key)) return true;
    level.set.add(key);
    return false;
  }
  if (level.keys.includes(key)) return true;
  level.keys.push(key);
  if (level.keys.length >= setFrom) level.set = new Set(level.keys);
  return false;
}

/** The dotted path of `key` in the object at `depth`: the keys of the objects above (arrays add nothing); empty keys at its start add no dot. */
function pathOf(levels: Level[], depth: number, key: string): string {
  let path = '';
  for (let d = 0; d < depth - 1; d++) if (levels[d].object) path = path ? `${path}.${levels[d].last}` : levels[d].last;
  return path ? `${path}.${key}` : key;
}
