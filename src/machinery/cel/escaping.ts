/**
 * Property names as CEL sees them (upstream's escaping.go): reserved words
 * become `__word__`, and `__`, `.`, `-`, `/` inside names become
 * `__underscores__`, `__dot__`, `__dash__`, `__slash__`. Names with other
 * characters are not accessible from rules at all.
 */
const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const ESCAPABLE = /^[_a-zA-Z.\-/][_a-zA-Z0-9.\-/]*$/;
const REPLACEMENTS: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

function escape(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) => REPLACEMENTS[m]);
}

// Names come from schemas and are escaped for every value converted: remember them (within a bound).
const escaped = new Map<string, string | undefined>();
const MAX_REMEMBERED = 10_000;

export function escapePropertyName(name: string): string | undefined {
  let out = escaped.get(name);
  if (out === undefined && !escaped.has(name)) {
    if (escaped.size >= MAX_REMEMBERED) escaped.clear();
    escaped.set(name, (out = escape(name)));
  }
  return out;
}
