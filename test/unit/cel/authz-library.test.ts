/**
 * The authz library: builders and checks as upstream's library/authz.go
 * forms them, the request's resource as `authorizer.requestResource` (a
 * dotted variable name resolved before selecting from `authorizer`), and
 * upstream's cost of a check.
 */
import {
  admissionLibraries,
  authorizerValue,
  AUTHORIZER_TYPE,
  CelEnvironment,
  compileRule,
  evaluate,
  resourceCheckValue,
  RESOURCE_CHECK_TYPE,
} from '../../../src/machinery/cel';
import type { AuthzAttributes } from '../../../src/ports/authorizer.port';

const env = new CelEnvironment({ authorizer: { type: AUTHORIZER_TYPE }, 'authorizer.requestResource': { type: RESOURCE_CHECK_TYPE } }, admissionLibraries);
const alice = { username: 'alice', groups: ['dev'] };

function run(source: string) {
  const asked: AuthzAttributes[] = [];
  const authorize = (a: AuthzAttributes) => {
    asked.push(a);
    return { allowed: a.user.username === 'alice' && a.verb !== 'delete', reason: `asked about ${a.verb}` };
  };
  const compiled = compileRule(source, env);
  if (compiled.error !== undefined) throw new Error(compiled.error);
  const activation = {
    authorizer: authorizerValue(alice, authorize),
    'authorizer.requestResource': resourceCheckValue(alice, authorize, { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'prod', name: 'web' }),
  };
  return { ...evaluate(compiled.program, activation), asked, estimated: compiled.program.estimatedCost };
}

it('checks a resource as the user, with the fields the builders set', () => {
  const r = run("authorizer.group('apps').resource('deployments').subresource('status').namespace('prod').name('web').check('update').allowed()");
  expect(r.value).toBe(true);
  expect(r.asked).toEqual([
    { user: alice, verb: 'update', resourceRequest: true, apiGroup: 'apps', apiVersion: '*', resource: 'deployments', subresource: 'status', namespace: 'prod', name: 'web' },
  ]);
});

it('checks paths with the verb lower-cased, and decisions tell their reason', () => {
  const r = run("authorizer.path('/healthz').check('GET').reason()");
  expect(r.value).toBe('asked about get');
  expect(r.asked[0]).toEqual({ user: alice, verb: 'get', resourceRequest: false, path: '/healthz' });
  expect(run("authorizer.path('/x').check('delete').allowed()").value).toBe(false);
  expect(run("authorizer.path('/x').check('get').errored() || authorizer.path('/x').check('get').error() != ''").value).toBe(false);
});

it('checks as a service account when asked to', () => {
  const r = run("authorizer.serviceAccount('ns', 'robot').group('').resource('pods').check('get').allowed()");
  expect(r.value).toBe(false);
  expect(r.asked[0].user).toEqual({ username: 'system:serviceaccount:ns:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] });
});

it('serves the request resource as authorizer.requestResource', () => {
  const r = run("authorizer.requestResource.check('update').allowed()");
  expect(r.value).toBe(true);
  expect(r.asked[0]).toMatchObject({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'prod', name: 'web', verb: 'update' });
});

it('prices a check as upstream does: two fit in one expression, three do not', () => {
  const check = "authorizer.group('').resource('pods').check('get').allowed()";
  expect(run(check).estimated.max).toBeGreaterThanOrEqual(350_000);
  expect(run(`${check} && ${check}`).error).toBeUndefined();
  expect(run(`${check} && ${check} && ${check}`).error).toBe('operation cancelled: actual cost limit exceeded');
});

it('is not declared outside admission environments', () => {
  const plain = new CelEnvironment({ x: { type: AUTHORIZER_TYPE } });
  expect(compileRule("x.path('/')", plain).error).toContain("undeclared reference to 'path'");
});
