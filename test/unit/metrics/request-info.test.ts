import { requestInfo } from '../../../src/adapters/metrics/http-metrics';

describe('request metric labels from the URL', () => {
  it.each([
    ['GET', '/api/v1/namespaces/ns/configmaps/a', {}, { verb: 'GET', group: '', version: 'v1', resource: 'configmaps', scope: 'resource' }],
    ['GET', '/api/v1/namespaces/ns/configmaps', {}, { verb: 'LIST', resource: 'configmaps', scope: 'namespace' }],
    ['GET', '/api/v1/namespaces/ns/configmaps', { watch: 'true' }, { verb: 'WATCH', resource: 'configmaps' }],
    ['GET', '/api/v1/watch/namespaces/ns/configmaps', {}, { verb: 'WATCH', resource: 'configmaps', scope: 'namespace' }],
    ['DELETE', '/apis/coordination.svc.io/v1/leases', {}, { verb: 'DELETECOLLECTION', group: 'coordination.svc.io', resource: 'leases', scope: 'cluster' }],
    ['PUT', '/apis/certificates.svc.io/v1/certificatesigningrequests/x/approval', {}, { verb: 'PUT', resource: 'certificatesigningrequests', subresource: 'approval' }],
    ['GET', '//api//v1/namespaces', {}, { verb: 'LIST', resource: 'namespaces', scope: 'cluster' }],
    ['GET', '/healthz', {}, { verb: 'GET', resource: '' }],
  ])('%s %s %j', (method, path, query, expected) => {
    expect(requestInfo(method, path, query)).toMatchObject(expected);
  });
});
