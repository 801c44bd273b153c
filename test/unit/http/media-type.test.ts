/**
 * decodeObjectBody reads the body by its Content-Type's media type (parameters and case aside), and answers each
 * request by its own header: the parse of the last header is reused only for the same header.
 */
import { decodeObjectBody } from '../../../src/adapters/http/media';

const json = Buffer.from('{"kind":"ConfigMap","metadata":{"name":"a"}}');
const yaml = Buffer.from('kind: ConfigMap\nmetadata:\n  name: a\n');

describe('decodeObjectBody by Content-Type', () => {
  it('each request by its own header, whatever came before', () => {
    const headers: [string | undefined, Buffer, 'ok' | 415 | 400][] = [
      ['application/json', json, 'ok'],
      ['application/json', json, 'ok'],
      ['Application/JSON; charset=utf-8', json, 'ok'],
      ['application/yaml', yaml, 'ok'],
      ['application/json', yaml, 400],
      [undefined, json, 'ok'],
      ['text/plain', json, 415],
      ['application/yaml', yaml, 'ok'],
      ['text/plain', json, 415],
      ['application/json', json, 'ok'],
    ];
    for (const [contentType, body, expected] of headers) {
      let outcome: 'ok' | number = 'ok';
      try {
        expect(decodeObjectBody(contentType, body).object).toEqual({ kind: 'ConfigMap', metadata: { name: 'a' } });
      } catch (e) {
        outcome = (e as { status?: { code?: number } }).status?.code ?? -1;
      }
      expect([contentType, outcome]).toEqual([contentType, expected]);
    }
  });
});
