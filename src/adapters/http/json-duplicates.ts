/**
 * Finds duplicate object keys in JSON text that already parsed, reporting
 * dotted paths (`metadata.labels.a`) as upstream's strict decoder does.
 */
export function findDuplicateKeys(text: string): string[] {
  return scanDuplicateKeys(text).map((d) => d.path);
}

interface Duplicate {
  path: string;
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
      const s = readString();
      const top = stack[stack.length - 1];
      if (expectKey && top && top.keys) {
        const path = top.path ? `${top.path}.${s}` : s;
        if (top.keys.has(s)) found.push({ path });
        top.keys.add(s);
        top.pendingKey = s;
        expectKey = false;
      }
    } else i++;
  }
  return found;
}
