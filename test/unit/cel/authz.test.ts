/** The authz library: checks built in CEL reach the AuthorizerPort with upstream's attributes and costs. */
import * as cel from '../../../src/machinery/cel';
import type { AuthorizerPort, AuthzAttributes } from '../../../src/ports/authorizer.port';
import { alwaysAllow } from '../../../src/ports/authorizer.port';

const user = { username: 'alice', groups: ['devs'] };

function recordingAuthorizer(allow: (a: AuthzAttributes) => boolean): { port: AuthorizerPort; seen: AuthzAttributes[] } {
  const seen: AuthzAttributes[] = [];
  return { seen, port: { ...alwaysAllow, authorize: (a) => (seen.push(a), { allowed: allow(a), reason: allow(a) ? 'granted' : 'nope' }) } };
}

const env = new cel.CelEnvironment({ authorizer: { type: cel.AUTHORIZER_TYPE }, 'authorizer.requestResource': { type: cel.RESOURCE_CHECK_TYPE } });

function run(expression: string, port: AuthorizerPort) {
  const compiled = cel.compileRule(expression, env);
  if (compiled.error) throw new Error(compiled.error);
  const activation = {
    authorizer: cel.authorizerValue(user, port),
    'authorizer.requestResource': cel.resourceCheckValue(user, port, { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'web' }),
  };
  return cel.evaluate(compiled.program!, activation);
}

describe('the authz library', () => {
  it('asks the authorizer about the resource a check names, for the requesting user', () => {
    const { port, seen } = recordingAuthorizer((a) => a.verb === 'update');
    const r = run("authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('web').check('update').allowed()", port);
    expect(r.value).toBe(true);
    expect(seen).toEqual([
      { verb: 'update', resourceRequest: true, apiGroup: 'apps', apiVersion: '*', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'web', user },
    ]);
    expect(r.cost).toBeGreaterThanOrEqual(cel.AUTHZ_CHECK_COST);
  });

  it('checks paths, reasons and service accounts', () => {
    const { port, seen } = recordingAuthorizer(() => false);
    expect(run("authorizer.path('/healthz').check('get').reason()", port).value).toBe('nope');
    expect(seen[0]).toMatchObject({ verb: 'get', resourceRequest: false, path: '/healthz' });
    run("authorizer.serviceAccount('default', 'robot').group('').resource('pods').check('list').allowed()", port);
    expect(seen[1].user).toEqual({ username: 'system:serviceaccount:default:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:default'] });
    expect(run("authorizer.path(' ').check('get').allowed()", port).error).toBe('path must not be empty');
    expect(run("authorizer.serviceAccount('Not Valid', 'robot').path('/x').check('get').allowed()", port).error).toBe('Invalid service account namespace');
  });

  it('serves authorizer.requestResource as the request it stands for', () => {
    const { port, seen } = recordingAuthorizer(() => true);
    expect(run("authorizer.requestResource.check('delete').allowed() && !authorizer.requestResource.check('x').errored()", port).value).toBe(true);
    expect(seen[0]).toMatchObject({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'web', verb: 'delete' });
  });

  it('estimates a check at upstream cost and stops the third under the per-call limit', () => {
    const compiled = cel.compileRule("authorizer.path('/a').check('get').allowed()", env);
    expect(compiled.program!.estimatedCost.max).toBeGreaterThanOrEqual(cel.AUTHZ_CHECK_COST);
    const { port } = recordingAuthorizer(() => true);
    const three = "[1, 2, 3].all(i, authorizer.path('/a').check('get').allowed())";
    expect(run(three, port).error).toBe(cel.COST_LIMIT_EXCEEDED);
  });
});
