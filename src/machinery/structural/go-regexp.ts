/**
 * Patterns in CRD schemas are Go regular expressions (RE2 syntax: `(?i)`,
 * `\z`, POSIX classes; no lookaround or backreferences), so they are compiled
 * with re2js, a port of RE2 whose syntax errors read as Go's
 * (`error parsing regexp: missing argument to repetition operator: `+``).
 * Compiled patterns are cached: the same schema pattern runs on every write.
 */
import { RE2JS } from 're2js';

export type GoRegexp = { ok: true; test(s: string): boolean } | { ok: false; error: string };

const cache = new Map<string, GoRegexp>();
const maxCached = 4096;

/** Go's regexp.Compile: a matcher with MatchString's unanchored search, or the compile error text. */
export function compileGoRegexp(pattern: string): GoRegexp {
  let out = cache.get(pattern);
  if (out) return out;
  try {
    const re = RE2JS.compile(pattern);
    out = { ok: true, test: (s: string) => re.matcher(s).find() };
  } catch (e) {
    out = { ok: false, error: (e as Error).message };
  }
  if (cache.size >= maxCached) cache.clear();
  cache.set(pattern, out);
  return out;
}
