/**
 * How deeply a request body may nest. Bodies are walked recursively further
 * on (patches, schema checks, cloning), so a body nested deeper than the
 * stack allows must be refused while it is still text. Kubernetes objects
 * nest a few dozen levels at most; js-yaml already stops YAML at 100.
 */
export const maxJsonDepth = 1000;

/** True when valid JSON text nests objects and arrays more than `max` deep. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  if (text.length <= 2 * max) return false; // each level takes at least two characters
  const tokens = /[[\]{}"]/g;
  let depth = 0;
  for (let m = tokens.exec(text); m; m = tokens.exec(text)) {
    const c = m[0];
    if (c === '"') {
      tokens.lastIndex = stringEnd(text, m.index + 1);
    } else if (c === '[' || c === '{') {
      if (++depth > max) return true;
    } else depth--;
  }
  return false;
}

/** Index just after the closing quote of the string whose content starts at `from`. */
function stringEnd(text: string, from: number): number {
  for (let i = text.indexOf('"', from); i >= 0; i = text.indexOf('"', i + 1)) {
    let slashes = 0;
    for (let j = i - 1; j >= from && text.charCodeAt(j) === 92; j--) slashes++;
    if (slashes % 2 === 0) return i + 1;
  }
  return text.length;
}
