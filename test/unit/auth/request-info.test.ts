import { parse as parseQueryString } from 'node:querystring';
import { QueryValues, requestInfo } from '../../../src/auth/request-info';

describe('requestInfo (upstream RequestInfoFactory)', () => {
  it.each([
    ['GET', '/api/v1/namespaces/ns/configmaps', { verb: 'list', resource: 'configmaps', namespace: 'ns', apiGroup: '' }],
    ['GET', '/api/v1/namespaces/ns/configmaps?watch=true', { verb: 'watch', resource: 'configmaps', namespace: 'ns', longRunning: true }],
    ['GET', '/api/v1/namespaces/ns/configmaps/a', { verb: 'get', name: 'a', longRunning: false }],
    ['GET', '/api/v1/namespaces/ns/configmaps/a?watch=true', { verb: 'get', name: 'a', longRunning: false }],
    ['GET', '/api/v1/watch/namespaces/ns/configmaps/a', { verb: 'watch', name: 'a', namespace: 'ns', longRunning: true }],
    ['GET', '/api/v1/configmaps', { verb: 'list', namespace: undefined }],
    ['POST', '/api/v1/namespaces/ns/configmaps', { verb: 'create' }],
    ['PUT', '/apis/certificates.svc.io/v1/certificatesigningrequests/c/approval', { verb: 'update', apiGroup: 'certificates.svc.io', resource: 'certificatesigningrequests', name: 'c', subresource: 'approval' }],
    ['PATCH', '/apis/policy/v1/namespaces/ns/poddisruptionbudgets/p/status', { verb: 'patch', subresource: 'status' }],
    ['DELETE', '/api/v1/namespaces/ns/configmaps', { verb: 'deletecollection' }],
    ['DELETE', '/api/v1/namespaces/ns/configmaps/a', { verb: 'delete', name: 'a' }],
    ['GET', '/api/v1/namespaces/ns', { verb: 'get', resource: 'namespaces', name: 'ns', namespace: 'ns' }],
    ['GET', '/api/v1/namespaces/ns/status', { verb: 'get', resource: 'namespaces', name: 'ns', subresource: 'status' }],
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dx', { verb: 'list', name: 'x', parts: ['configmaps'] }],
    ['POST', '/api/v1/namespaces/ns/serviceaccounts/sa/token', { verb: 'create', resource: 'serviceaccounts', name: 'sa', subresource: 'token' }],
    ['GET', '/api/v1/namespaces/ns/configmaps/a%20b', { verb: 'get', name: 'a b' }],
  ])('%s %s', (method, url, expected) => {
    expect(requestInfo(method, url)).toMatchObject({ resourceRequest: true, ...expected });
  });

  it.each([['/healthz'], ['/api'], ['/apis'], ['/apis/policy'], ['/apis/policy/v1'], ['/openapi/v2'], ['/version']])('%s is a non-resource path', (path) => {
    expect(requestInfo('GET', path)).toMatchObject({ verb: 'get', resourceRequest: false, path });
  });

  // Upstream's Convert_Slice_string_To_bool: present means true unless the first value is 0, f, false, n or no.
  it.each([
    ['', 'list'],
    ['?watch', 'watch'],
    ['?watch=', 'watch'],
    ['?watch=yes', 'watch'],
    ['?watch=True', 'watch'],
    ['?watch=1', 'watch'],
    ['?watch=0', 'list'],
    ['?watch=no', 'list'],
    ['?watch=N', 'list'],
    ['?watch=F', 'list'],
    ['?watch=false', 'list'],
    ['?watch=FALSE', 'list'],
    ['?watch=false&watch=true', 'list'],
    ['?watch=true&watch=false', 'watch'],
  ])('watch flag %j: %s', (query, verb) => {
    expect(requestInfo('GET', `/api/v1/namespaces/ns/configmaps${query}`).verb).toBe(verb);
  });

  it('reads scalar options from the first value, as upstream', () => {
    const { query } = requestInfo('GET', '/api/v1/configmaps?limit=1&limit=2&dryRun=All&dryRun=x');
    expect(query.first('limit')).toBe('1');
    expect(query.all('dryRun')).toEqual(['All', 'x']);
    expect(query.flag('absent')).toBeUndefined();
  });

  it('reads a query as node:querystring does, with or without escapes', () => {
    // Random queries over the characters that matter: separators, escapes, plus, and a few letters.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = 'ab&&==%2+x';
    const texts = ['', 'a', 'a=', '=b', '=', '&', 'a&&b', 'a=1&a=2&a=3', 'a=b=c', 'k=%zz', 'k=a+b', `${'x=1&'.repeat(1200)}last=1`, `${'&'.repeat(1200)}late=1`];
    for (let i = 0; i < 500; i++) texts.push(Array.from({ length: Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
    for (const text of texts) {
      const expected = parseQueryString(text);
      const values = QueryValues.parse(text);
      expect({ text, record: { ...values.record } }).toEqual({ text, record: { ...expected } });
      for (const key of Object.keys(expected)) expect(values.all(key)).toEqual([expected[key]].flat());
      expect(values.has('never-sent')).toBe(false);
    }
  });

  it('refuses a malformed escape in the path as the client\'s 400', () => {
    expect(() => requestInfo('GET', '/api/v1/namespaces/ns/configmaps/a%zz')).toThrow(expect.objectContaining({ status: expect.objectContaining({ code: 400 }) }));
  });
});
