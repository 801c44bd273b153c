/** A JSON body is parsed once (JSON.parse) and scanned once (depth and repeated keys together). */
import * as jsonText from '../../../src/adapters/http/json-text';
import { decodeJson, maxJsonDepth } from '../../../src/adapters/http/media';
import { ApiError } from '../../../src/machinery/status';

function refusal(text: string): string {
  try {
    decodeJson(Buffer.from(text));
  } catch (e) {
    if (e instanceof ApiError) return e.status.message ?? '';
    throw e;
  }
  return 'decoded';
}

test('the text is parsed once and scanned once, for depth and repeated keys alike', () => {
  const text = '{"metadata":{"name":"a","labels":{"x":"1","x":"2"}},"data":{"k":"v"}}';
  const expected = JSON.parse(text);
  const parse = jest.spyOn(JSON, 'parse');
  const scan = jest.spyOn(jsonText, 'scanJsonText');
  try {
    expect(decodeJson(Buffer.from(text))).toEqual({ object: expected, duplicateFields: ['metadata.labels.x'] });
    expect(parse.mock.calls.filter(([t]) => t === text)).toHaveLength(1);
    expect(scan).toHaveBeenCalledTimes(1);
  } finally {
    parse.mockRestore();
    scan.mockRestore();
  }
});

test("too deep is upstream's message; a body that is not JSON gets the parse error first", () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  expect(refusal(deep(maxJsonDepth))).toBe('decoded');
  expect(refusal(deep(maxJsonDepth + 1))).toBe(`couldn't get version/kind; json parse error: exceeded max depth: more than ${maxJsonDepth} nested objects and arrays`);
  expect(refusal(`${deep(maxJsonDepth + 1)}x`)).toMatch(/^couldn't get version\/kind; json parse error: Unexpected non-whitespace character/);
});
