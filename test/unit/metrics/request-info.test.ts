import { requestLabels } from '../../../src/adapters/metrics/http-metrics';
import { requestInfo } from '../../../src/auth/request-info';

describe('request metric labels from the request info', () => {
  it.each([
    ['GET', '/api/v1/namespaces/ns/configmaps/a', { verb: 'GET', group: '', version: 'v1', resource: 'configmaps', scope: 'resource' }],
    ['GET', '/api/v1/namespaces/ns/configmaps', { verb: 'LIST', resource: 'configmaps', scope: 'namespace' }],
    ['GET', '/api/v1/namespaces/ns/configmaps?watch=true', { verb: 'WATCH', resource: 'configmaps' }],
    ['GET', '/api/v1/namespaces/ns/configmaps?watch=True', { verb: 'WATCH', resource: 'configmaps' }],
    ['GET', '/api/v1/namespaces/ns/configmaps?watch', { verb: 'WATCH', resource: 'configmaps' }],
    ['GET', '/api/v1/namespaces/ns/configmaps?watch=0', { verb: 'LIST', resource: 'configmaps' }],
    ['GET', '/api/v1/watch/namespaces/ns/configmaps', { verb: 'WATCH', resource: 'configmaps', scope: 'namespace' }],
    ['GET', '/api/v1/configmaps', { verb: 'LIST', resource: 'configmaps', scope: 'cluster' }],
    ['POST', '/api/v1/namespaces/ns/configmaps', { verb: 'POST', resource: 'configmaps', scope: 'resource' }],
    ['DELETE', '/apis/coordination.svc.io/v1/leases', { verb: 'DELETECOLLECTION', group: 'coordination.svc.io', resource: 'leases', scope: 'cluster' }],
    ['PUT', '/apis/certificates.svc.io/v1/certificatesigningrequests/x/approval', { verb: 'PUT', resource: 'certificatesigningrequests', subresource: 'approval' }],
    ['GET', '/api/v1/namespaces', { verb: 'LIST', resource: 'namespaces', scope: 'cluster' }],
    ['GET', '/api/v1/namespaces/ns', { verb: 'GET', resource: 'namespaces', scope: 'resource' }],
    ['GET', '/healthz', { verb: 'GET', resource: '', scope: '' }],
  ])('%s %s', (method, url, expected) => {
    expect(requestLabels(requestInfo(method, url), method, undefined)).toMatchObject(expected);
  });

  it('reports an apply patch as APPLY', () => {
    const url = '/api/v1/namespaces/ns/configmaps/a';
    expect(requestLabels(requestInfo('PATCH', url), 'PATCH', 'application/apply-patch+yaml').verb).toBe('APPLY');
    expect(requestLabels(requestInfo('PATCH', url), 'PATCH', 'application/merge-patch+json').verb).toBe('PATCH');
  });
});
