import { createHash } from 'node:crypto';
import { cachedTokenVerifier } from '../../../src/auth/authn/token-cache';
import { serviceAccountAuthenticator, privateClaim, type UidLookup } from '../../../src/auth/authn/service-account';
import { InvalidTokenError, type TokenClaims, type TokenPort } from '../../../src/ports/token.port';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');
const issuer = 'https://issuer';
const audiences = ['api'];
const t0 = Date.parse('2026-01-01T00:00:00Z');

function claims(exp: number): TokenClaims {
  return {
    iss: issuer, sub: 'system:serviceaccount:ns:robot', aud: audiences, exp, iat: t0 / 1000, nbf: t0 / 1000,
    [privateClaim]: { namespace: 'ns', serviceaccount: { name: 'robot', uid: 'sa-uid' } },
  };
}

/** A TokenPort that counts verifications: 'good' verifies until `exp`, anything else is invalid. */
function countingPort(exp: number) {
  const port = {
    verified: 0,
    sign: async () => 'unused',
    async verify(token: string, o: { now: Date }): Promise<TokenClaims | undefined> {
      port.verified++;
      if (token !== 'good') throw new InvalidTokenError('signature is invalid');
      if (o.now.getTime() >= exp * 1000) throw new InvalidTokenError('token is expired');
      return claims(exp);
    },
  };
  return port;
}

describe('cached service-account token verification (upstream: success 10 s, failures not cached)', () => {
  let now = t0;
  const clock = { now: () => new Date(now) };
  const verify = (port: TokenPort, token = 'good', aud = audiences) => port.verify(token, { issuers: [issuer], audiences: aud, now: clock.now() });
  beforeEach(() => (now = t0));

  it('verifies once within the TTL and again after it', async () => {
    const inner = countingPort(t0 / 1000 + 3600);
    const cached = cachedTokenVerifier(inner, hash);
    await verify(cached);
    now += 9_999;
    expect(await verify(cached)).toMatchObject({ sub: 'system:serviceaccount:ns:robot' });
    expect(inner.verified).toBe(1);
    now += 1;
    await verify(cached);
    expect(inner.verified).toBe(2);
  });

  it('never remembers a token past its exp', async () => {
    const inner = countingPort(t0 / 1000 + 5);
    const cached = cachedTokenVerifier(inner, hash);
    await verify(cached);
    now += 5_000;
    await expect(verify(cached)).rejects.toThrow('token is expired');
    expect(inner.verified).toBe(2);
  });

  it('does not remember failures, and keys on the audiences asked', async () => {
    const inner = countingPort(t0 / 1000 + 3600);
    const cached = cachedTokenVerifier(inner, hash);
    await expect(verify(cached, 'bad')).rejects.toThrow(InvalidTokenError);
    await expect(verify(cached, 'bad')).rejects.toThrow(InvalidTokenError);
    expect(inner.verified).toBe(2);
    await verify(cached, 'good', ['api']);
    await verify(cached, 'good', ['other']);
    expect(inner.verified).toBe(4);
  });

  it('a deleted or recreated ServiceAccount revokes a cached token at once', async () => {
    const inner = countingPort(t0 / 1000 + 3600);
    const accounts = new Map([['ns/robot', 'sa-uid']]);
    const lookup: UidLookup = { uidOf: (_v, _k, ns, name) => accounts.get(`${ns}/${name}`) };
    const authn = serviceAccountAuthenticator(cachedTokenVerifier(inner, hash), lookup, clock, { issuers: [issuer], audiences });
    expect(await authn.authenticate({ bearerToken: 'good' })).toMatchObject({ user: { username: 'system:serviceaccount:ns:robot' } });
    accounts.delete('ns/robot');
    expect(await authn.authenticate({ bearerToken: 'good' })).toEqual({ error: 'service account token: serviceaccounts "robot" not found' });
    accounts.set('ns/robot', 'new-uid');
    expect(await authn.authenticate({ bearerToken: 'good' })).toMatchObject({ error: expect.stringContaining('does not match') });
    expect(inner.verified).toBe(1); // the signature was checked once; the account on every request
  });

  it('a remembered token gives one user object while its account stands; the account is checked each time all the same', async () => {
    const accounts = new Map([['ns/robot', 'sa-uid']]);
    const lookup: UidLookup = { uidOf: (_v, _k, ns, name) => accounts.get(`${ns}/${name}`) };
    const authn = serviceAccountAuthenticator(cachedTokenVerifier(countingPort(t0 / 1000 + 3600), hash), lookup, clock, { issuers: [issuer], audiences });
    const first = (await authn.authenticate({ bearerToken: 'good' })) as { user: object };
    expect(((await authn.authenticate({ bearerToken: 'good' })) as { user: object }).user).toBe(first.user);
    accounts.delete('ns/robot');
    expect(await authn.authenticate({ bearerToken: 'good' })).toEqual({ error: 'service account token: serviceaccounts "robot" not found' });
    accounts.set('ns/robot', 'sa-uid');
    expect(((await authn.authenticate({ bearerToken: 'good' })) as { user: object }).user).toBe(first.user);
    // A TokenReview's audiences make their own answer.
    expect(await authn.authenticate({ bearerToken: 'good', audiences: ['api', 'other'] })).toEqual({ user: first.user, audiences: ['api'] });
  });

  it('answers a remembered token at once, without a promise, and so does the authenticator over it', async () => {
    const inner = countingPort(t0 / 1000 + 3600);
    const cached = cachedTokenVerifier(inner, hash);
    const lookup: UidLookup = { uidOf: () => 'sa-uid' };
    const authn = serviceAccountAuthenticator(cached, lookup, clock, { issuers: [issuer], audiences });
    const first = authn.authenticate({ bearerToken: 'good' });
    expect(first).toBeInstanceOf(Promise);
    await first;
    expect(verify(cached)).toMatchObject({ sub: 'system:serviceaccount:ns:robot' });
    expect(authn.authenticate({ bearerToken: 'good' })).toMatchObject({ user: { username: 'system:serviceaccount:ns:robot' } });
    expect(inner.verified).toBe(1);
  });

  it('a token the verifier refuses, late or at once, is an error with its reason; a verifier that breaks is not', async () => {
    const lookup: UidLookup = { uidOf: () => 'sa-uid' };
    const late = serviceAccountAuthenticator(countingPort(t0 / 1000 + 3600), lookup, clock, { issuers: [issuer], audiences });
    expect(await late.authenticate({ bearerToken: 'forged' })).toEqual({ error: 'service account token: signature is invalid' });
    expect(late.authenticate({})).toBeUndefined();
    const refusing: TokenPort = { sign: async () => 'unused', verify: () => { throw new InvalidTokenError('token is expired'); } };
    expect(serviceAccountAuthenticator(refusing, lookup, clock, { issuers: [issuer], audiences }).authenticate({ bearerToken: 'x' })).toEqual({ error: 'service account token: token is expired' });
    const broken: TokenPort = { sign: async () => 'unused', verify: async () => { throw new Error('key store unreadable'); } };
    await expect(serviceAccountAuthenticator(broken, lookup, clock, { issuers: [issuer], audiences }).authenticate({ bearerToken: 'x' })).rejects.toThrow('key store unreadable');
  });

  it('keeps at most maxEntries tokens', async () => {
    const inner = countingPort(t0 / 1000 + 3600);
    const cached = cachedTokenVerifier(inner, hash, { successTtlMs: 10_000, maxEntries: 1 });
    await verify(cached, 'good', ['a']);
    await verify(cached, 'good', ['b']);
    await verify(cached, 'good', ['a']);
    expect(inner.verified).toBe(3);
  });
});
