/**
 * Finds duplicate object keys in JSON text that already parsed, reporting
 * dotted paths (`metadata.labels.a`) as upstream's strict decoder does.
 */
export function findDuplicateKeys(text: string): string[] {
  return scanDuplicateKeys(text).map((d) => d.path);
}

/** Duplicates as go-yaml reports them when it reads JSON: `line 3: key "a" already set in map`. */
export function duplicateKeyLines(text: string): string[] {
  return scanDuplicateKeys(text).map((d) => `line ${text.slice(0, d.offset).split('\n').length}: key ${JSON.stringify(d.key)} already set in map`);
}

interface Duplicate {
  path: string;
  key: string;
  offset: number;
}

function scanDuplicateKeys(text: string): Duplicate[] {
  if (!text.includes('"')) return [];
  const found: Duplicate[] = [];
  const stack: Array<{ keys: Set<string> | null; path: string; pendingKey?: string }> = [];
  let i = 0;
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const childPath = () => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.keys === null) return top.path;
    return top.path ? `${top.path}.${top.pendingKey ?? ''}` : (top.pendingKey ?? '');
  };
  let expectKey = false;
  while (i < text.length) {
    const c = text[i];
    if (c === '{') {
      stack.push({ keys: new Set(), path: childPath() });
      expectKey = true;
      i++;
    } else if (c === '[') {
      stack.push({ keys: null, path: childPath() });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1]?.keys !== null;
      i++;
    } else if (c === '"') {
      const offset = i;
      const s = readString();
      const top = stack[stack.length - 1];
      if (expectKey && top && top.keys) {
        const path = top.path ? `${top.path}.${s}` : s;
        if (top.keys.has(s)) found.push({ path, key: s, offset });
        top.keys.add(s);
        top.pendingKey = s;
        expectKey = false;
      }
    } else i++;
  }
  return found;
}
