/**
 * Property names as CEL sees them (upstream's escaping.go): reserved words
 * become `__word__`, and `__`, `.`, `-`, `/` inside names become
 * `__underscores__`, `__dot__`, `__dash__`, `__slash__`. Names with other
 * characters are not accessible from rules at all.
 */
const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const ESCAPABLE = /^[_a-zA-Z.\-/][_a-zA-Z0-9.\-/]*$/;
const REPLACEMENTS: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

export function escapePropertyName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) => REPLACEMENTS[m]);
}
