import { requestInfo } from '../../../src/auth/request-info';

describe('requestInfo (upstream RequestInfoFactory)', () => {
  it.each([
    ['GET', '/api/v1/namespaces/ns/configmaps', {}, { verb: 'list', resource: 'configmaps', namespace: 'ns', apiGroup: '' }],
    ['GET', '/api/v1/namespaces/ns/configmaps', { watch: 'true' }, { verb: 'watch', resource: 'configmaps', namespace: 'ns' }],
    ['GET', '/api/v1/namespaces/ns/configmaps/a', {}, { verb: 'get', name: 'a' }],
    ['GET', '/api/v1/watch/namespaces/ns/configmaps/a', {}, { verb: 'watch', name: 'a', namespace: 'ns' }],
    ['GET', '/api/v1/configmaps', {}, { verb: 'list', namespace: undefined }],
    ['POST', '/api/v1/namespaces/ns/configmaps', {}, { verb: 'create' }],
    ['PUT', '/apis/certificates.svc.io/v1/certificatesigningrequests/c/approval', {}, { verb: 'update', apiGroup: 'certificates.svc.io', resource: 'certificatesigningrequests', name: 'c', subresource: 'approval' }],
    ['PATCH', '/apis/policy/v1/namespaces/ns/poddisruptionbudgets/p/status', {}, { verb: 'patch', subresource: 'status' }],
    ['DELETE', '/api/v1/namespaces/ns/configmaps', {}, { verb: 'deletecollection' }],
    ['DELETE', '/api/v1/namespaces/ns/configmaps/a', {}, { verb: 'delete', name: 'a' }],
    ['GET', '/api/v1/namespaces/ns', {}, { verb: 'get', resource: 'namespaces', name: 'ns', namespace: 'ns' }],
    ['GET', '/api/v1/namespaces/ns/configmaps', { fieldSelector: 'metadata.name=x' }, { verb: 'list', name: 'x' }],
    ['POST', '/api/v1/namespaces/ns/serviceaccounts/sa/token', {}, { verb: 'create', resource: 'serviceaccounts', name: 'sa', subresource: 'token' }],
  ])('%s %s %j', (method, path, query, expected) => {
    expect(requestInfo(method, path, query)).toMatchObject({ resourceRequest: true, ...expected });
  });

  it.each([['/healthz'], ['/api'], ['/apis'], ['/apis/policy'], ['/apis/policy/v1'], ['/openapi/v2'], ['/version']])('%s is a non-resource path', (path) => {
    expect(requestInfo('GET', path, {})).toEqual({ verb: 'get', resourceRequest: false, path });
  });
});
