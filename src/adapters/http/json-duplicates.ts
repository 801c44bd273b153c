/**
 * Finds duplicate object keys in JSON text that already parsed, reporting
 * dotted paths (`metadata.labels.a`) as upstream's strict decoder does.
 */
export function findDuplicateKeys(text: string): string[] {
  return scanDuplicateKeys(text).map((d) => d.path);
}

/** An open object or array; an array's entries inherit its path (upstream names no index). */
interface Level {
  keys: Set<string> | null;
  parent: Level | undefined;
  /** The key under which this level sits in its parent object. */
  key: string;
  /** The last key read in this object. */
  pending: string;
}

/** The dotted path of `key` in `level`, built only for a duplicate; empty keys at its start add no dot. */
function pathOf(level: Level | undefined, key: string): string {
  const parts = [key];
  for (let l = level; l?.parent; l = l.parent) if (l.parent.keys !== null) parts.push(l.key);
  let path = '';
  for (let i = parts.length - 1; i >= 0; i--) path = path ? `${path}.${parts[i]}` : parts[i];
  return path;
}

function scanDuplicateKeys(text: string): Array<{ path: string }> {
  if (!text.includes('"')) return [];
  const found: Array<{ path: string }> = [];
  let top: Level | undefined;
  let i = 0;
  let escaped = false;
  // The next backslash at or after i, looked up again only once i has passed it (one scan of the text in all).
  let slash = -1;
  // Moves past the string that starts at i; `escaped` says whether it held a backslash.
  const skipString = (): void => {
    escaped = false;
    i++;
    for (;;) {
      const at = text.indexOf('"', i);
      if (slash < i) {
        const next = text.indexOf('\\', i);
        slash = next < 0 ? Infinity : next;
      }
      if (at < 0) {
        i = text.length;
        return;
      }
      if (slash > at) {
        i = at + 1;
        return;
      }
      escaped = true;
      i = slash + 2;
    }
  };
  let expectKey = false;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const key = top ? (top.keys === null ? top.key : top.pending) : '';
      top = { keys: c === 0x7b ? new Set() : null, parent: top, key, pending: '' };
      expectKey = c === 0x7b;
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      top = top?.parent;
      i++;
    } else if (c === 0x2c /* , */) {
      expectKey = top !== undefined && top.keys !== null;
      i++;
    } else if (c === 0x22 /* " */) {
      const start = i;
      skipString();
      if (expectKey && top && top.keys) {
        const key = escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
        if (top.keys.has(key)) found.push({ path: pathOf(top, key) });
        top.keys.add(key);
        top.pending = key;
        expectKey = false;
      }
    } else i++;
  }
  return found;
}
