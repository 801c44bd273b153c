/**
 * encodeForStorage gives the UTF-8 JSON of the object without resourceVersion
 * and selfLink, whatever the size and the characters of its text.
 */
import { encodeForStorage } from '../../../src/registry/codec';
import type { KObject } from '../../../src/machinery/object';

const plain = {};
const configMap = (value: string): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', resourceVersion: '7', selfLink: '/s' }, data: { value } });
const expected = (value: string) => Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { value } }), 'utf8');

test.each([
  ['small ASCII', 'v'],
  ['large ASCII', 'v'.repeat(100_000)],
  ['large, one é at the end', `${'v'.repeat(100_000)}é`],
  ['large, Latin-1 only', 'é'.repeat(50_000)],
  ['large, astral characters', '😀'.repeat(30_000)],
  ['large, a lone surrogate', `${'v'.repeat(100_000)}\ud800`],
])('%s', (_name, value) => {
  expect(encodeForStorage(plain, configMap(value)).equals(expected(value))).toBe(true);
});
