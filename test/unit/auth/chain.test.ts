import { AuthenticatorChain } from '../../../src/auth/authn/chain';
import { x509Authenticator } from '../../../src/auth/authn/x509';
import { tokenFileAuthenticator } from '../../../src/auth/authn/token-file';
import type { Authenticator } from '../../../src/auth/authn/authenticator';
import { audienceAgnostic, intersectAudiences } from '../../../src/auth/authn/audiences';

const tokens = tokenFileAuthenticator(new Map([['good', { username: 'tina', uid: '1', groups: ['g'] }]]));
const failingJwt: Authenticator = { authenticate: ({ bearerToken }) => (bearerToken?.startsWith('ey') ? { error: 'token has expired' } : undefined) };
const cert = (verified: boolean) => ({ verified, commonName: 'carl', organizations: ['dev'], error: verified ? undefined : 'unable to verify the first certificate' });

describe('authenticator chain (upstream union, then fail-on-error before anonymous)', () => {
  const chain = new AuthenticatorChain([x509Authenticator], [tokens, failingJwt], true);

  it('the first authenticator that knows the user wins; everyone is in system:authenticated', async () => {
    expect(await chain.authenticate({ clientCertificate: cert(true), bearerToken: 'good' })).toEqual({ user: { username: 'carl', groups: ['dev', 'system:authenticated'] } });
    expect(await chain.authenticate({ bearerToken: 'good' })).toEqual({ user: { username: 'tina', uid: '1', groups: ['g', 'system:authenticated'] } });
  });

  it('an unverified certificate does not stop a valid token (union), but alone is 401', async () => {
    expect(await chain.authenticate({ clientCertificate: cert(false), bearerToken: 'good' })).toMatchObject({ user: { username: 'tina' } });
    expect(await chain.authenticate({ clientCertificate: cert(false) })).toEqual({ unauthorized: 'x509: unable to verify the first certificate' });
  });

  it('a token nobody claims, or one that fails, is 401 and never anonymous', async () => {
    expect(await chain.authenticate({ bearerToken: 'unknown' })).toEqual({ unauthorized: 'invalid bearer token' });
    expect(await chain.authenticate({ bearerToken: 'eyJ...' })).toEqual({ unauthorized: 'token has expired' });
  });

  it('answers at once, without a promise, when every authenticator asked did (a token file)', async () => {
    expect(chain.authenticate({ bearerToken: 'good' })).toEqual({ user: { username: 'tina', uid: '1', groups: ['g', 'system:authenticated'] } });
    const slow: Authenticator = { authenticate: async ({ bearerToken }) => (bearerToken === 'late' ? { user: { username: 'lou', groups: [] } } : undefined) };
    const mixed = new AuthenticatorChain([x509Authenticator], [tokens, slow], false);
    expect(mixed.authenticate({ bearerToken: 'good' })).not.toBeInstanceOf(Promise);
    const late = mixed.authenticate({ bearerToken: 'late' });
    expect(late).toBeInstanceOf(Promise);
    expect(await late).toEqual({ user: { username: 'lou', groups: ['system:authenticated'] } });
  });

  it('after an authenticator that answered late, the rest are asked in turn, each once; a failure rejects', async () => {
    const asked: string[] = [];
    const lateError: Authenticator = { authenticate: async () => (asked.push('late'), { error: 'webhook said no' }) };
    const counting: Authenticator = { authenticate: (c) => (asked.push('file'), tokens.authenticate(c)) };
    const mixed = new AuthenticatorChain([x509Authenticator], [lateError, counting], false);
    expect(await mixed.authenticate({ bearerToken: 'good' })).toEqual({ user: { username: 'tina', uid: '1', groups: ['g', 'system:authenticated'] } });
    expect(asked).toEqual(['late', 'file']);
    expect(await mixed.authenticate({ clientCertificate: cert(false), bearerToken: 'nobody' })).toEqual({ unauthorized: 'x509: unable to verify the first certificate; webhook said no' });
    const broken = new AuthenticatorChain([], [{ authenticate: () => Promise.reject(new Error('down')) }, counting], false);
    await expect(broken.authenticate({ bearerToken: 'good' })).rejects.toThrow('down');
  });

  it('one user object per token and per connection\'s certificate, which the authorizer knows again; the authenticator\'s own is left as it was', async () => {
    const user = async (c: Parameters<typeof chain.authenticate>[0]) => ((await chain.authenticate(c)) as { user: object }).user;
    expect(await user({ bearerToken: 'good' })).toBe(await user({ bearerToken: 'good' }));
    const connection = cert(true);
    expect(await user({ clientCertificate: connection })).toBe(await user({ clientCertificate: connection }));
    expect(await user({ clientCertificate: cert(true) })).not.toBe(await user({ clientCertificate: connection }));
    expect(tokens.authenticate({ bearerToken: 'good' })).toEqual({ user: { username: 'tina', uid: '1', groups: ['g'] } });
  });

  it('no credentials: anonymous when allowed, else 401', async () => {
    expect(await chain.authenticate({})).toEqual({ user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
    expect(await new AuthenticatorChain([x509Authenticator], [tokens], false).authenticate({})).toEqual({ unauthorized: 'no credentials' });
  });
});

describe('a token alone, as TokenReview asks (audiences as upstream)', () => {
  const api = ['https://kubernetes.default.svc.cluster.local'];
  const chain = new AuthenticatorChain([x509Authenticator], [audienceAgnostic(tokens, api), failingJwt], true);

  it('a token-file token is good for the server audiences among those asked, and says so', async () => {
    expect(await chain.authenticateToken('good', api)).toEqual({ user: { username: 'tina', uid: '1', groups: ['g', 'system:authenticated'] }, audiences: api });
    expect(await chain.authenticateToken('good', ['vault', ...api])).toMatchObject({ audiences: api });
    expect(await chain.authenticateToken('good', ['vault'])).toEqual({ error: 'invalid bearer token' });
    // Without asked-for audiences (every HTTP request) nothing changes.
    expect(await chain.authenticateToken('good')).toEqual({ user: { username: 'tina', uid: '1', groups: ['g', 'system:authenticated'] } });
  });

  it('errors as the request path reports them; never anonymous', async () => {
    expect(await chain.authenticateToken('eyJ...', api)).toEqual({ error: 'token has expired' });
    expect(await chain.authenticateToken('', api)).toEqual({ error: 'invalid bearer token' });
  });

  it('intersection keeps the first list\'s order', () => {
    expect(intersectAudiences(['b', 'a', 'c'], ['a', 'b'])).toEqual(['b', 'a']);
  });
});
