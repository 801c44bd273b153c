/**
 * Duplicate mapping keys in a YAML (or JSON) text, worded as go-yaml's
 * strict decoder reports them: `line 7: key "a" already set in map`.
 * The `yaml` package's parser gives each key's position; nested maps and
 * flow style (`{a: 1, a: 2}`, JSON) are covered alike.
 */
import { LineCounter, isMap, isScalar, parseDocument, visit } from 'yaml';

export function duplicateYamlKeys(text: string): string[] {
  const lines = new LineCounter();
  const found: string[] = [];
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, schema: 'core' });
  visit(doc, {
    Map(_, map) {
      if (!isMap(map)) return;
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const at = isScalar(pair.key) && pair.key.range ? lines.linePos(pair.key.range[0]).line : 0;
        if (seen.has(key)) found.push(`line ${at}: key ${JSON.stringify(key)} already set in map`);
        seen.add(key);
      }
    },
  });
  return found;
}
