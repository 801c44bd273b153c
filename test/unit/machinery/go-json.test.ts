/** Strings and values as Go's encoding/json prints them, which managedFields keys and identifiers must match byte for byte. */
import { goJson, goJsonString } from '../../../src/machinery/managed-fields/go-values';

describe("Go's JSON strings", () => {
  it.each([
    ['plain', '"plain"'],
    ['f:metadata', '"f:metadata"'],
    ['', '""'],
    ['quote " and backslash \\', '"quote \\" and backslash \\\\"'],
    ['line\nfeed\rand\ttab', '"line\\nfeed\\rand\\ttab"'],
    ['bell\u0007 backspace\b formfeed\f', '"bell\\u0007 backspace\\u0008 formfeed\\u000c"'],
    ['<a href="x">&amp;</a>', '"\\u003ca href=\\"x\\"\\u003e\\u0026amp;\\u003c/a\\u003e"'],
    ['line\u2028para\u2029', '"line\\u2028para\\u2029"'],
    ['ünïcødé ✓ 𝄞', '"ünïcødé ✓ 𝄞"'],
  ])('%j', (input, expected) => {
    expect(goJsonString(input)).toBe(expected);
  });

  it('agrees with JSON.stringify wherever Go and JavaScript escape alike', () => {
    const alphabet = ['a', 'Z', '0', ' ', ':', '{', '}', '.', '-', '/', 'é', '✓', '𝄞', '"', '\\', '\n', '<', '&'];
    for (let i = 0; i < 2000; i++) {
      let s = '';
      for (let k = 0; k < (i % 17); k++) s += alphabet[(i * 7 + k * 13) % alphabet.length];
      const js = JSON.stringify(s).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
      expect(goJsonString(s)).toBe(js);
    }
  });

  it('sorts object keys as Go marshals a map', () => {
    expect(goJson({ b: 1, a: ['x', null], 'k:<': true })).toBe('{"a":["x",null],"b":1,"k:\\u003c":true}');
  });
});
