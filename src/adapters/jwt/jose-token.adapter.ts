/** Service-account JWTs with `jose`: ES256/RS256 signing, verification against every configured public key. */
import { createHash, createPublicKey, KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { InvalidTokenError, type TokenClaims, type TokenPort } from '../../ports/token.port';

function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256';
  }
  throw new Error(`unsupported service-account key type ${key.asymmetricKeyType}`);
}

/** Upstream's key id: an unpadded base64url SHA-256 of the public key's DER. */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

export class JoseTokenAdapter implements TokenPort {
  private readonly verifiers: Array<{ kid: string; key: KeyObject; alg: string }>;

  constructor(
    private readonly signingKey: KeyObject | undefined,
    publicKeys: KeyObject[],
  ) {
    const keys = signingKey ? [createPublicKey(signingKey), ...publicKeys] : publicKeys;
    this.verifiers = keys.map((key) => ({ kid: keyId(key), key, alg: algorithmOf(key) }));
  }

  async sign(claims: TokenClaims): Promise<string> {
    if (!this.signingKey) throw new Error('no --service-account-signing-key-file: tokens cannot be issued');
    const pub = createPublicKey(this.signingKey);
    return new SignJWT(claims).setProtectedHeader({ alg: algorithmOf(pub), kid: keyId(pub) }).sign(this.signingKey);
  }

  async verify(token: string, opts: { issuers: string[]; audiences: string[]; now: Date }): Promise<TokenClaims | undefined> {
    let iss: string | undefined;
    let kid: string | undefined;
    try {
      iss = decodeJwt(token).iss;
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return undefined; // not a JWT: another authenticator's token
    }
    if (!iss || !opts.issuers.includes(iss)) return undefined;
    const candidates = this.verifiers.filter((v) => !kid || v.kid === kid);
    let last: unknown = new InvalidTokenError('no key matches the token');
    for (const v of candidates.length ? candidates : this.verifiers) {
      try {
        const { payload } = await jwtVerify(token, v.key, {
          algorithms: [v.alg],
          issuer: opts.issuers,
          audience: opts.audiences,
          currentDate: opts.now,
        });
        return payload as TokenClaims;
      } catch (e) {
        last = e;
        if (!(e instanceof joseErrors.JWSSignatureVerificationFailed)) break;
      }
    }
    if (last instanceof joseErrors.JWTExpired) throw new InvalidTokenError('token has expired');
    if (last instanceof joseErrors.JWTClaimValidationFailed && last.claim === 'aud') {
      // upstream's words, with Go's %q of a string list: ["a" "b"].
      const quoted = (list: unknown) => `[${(typeof list === 'string' ? [list] : Array.isArray(list) ? list : []).map((a) => JSON.stringify(String(a))).join(' ')}]`;
      throw new InvalidTokenError(`token audiences ${quoted(last.payload.aud)} is invalid for the target audiences ${quoted(opts.audiences)}`);
    }
    throw new InvalidTokenError((last as Error).message);
  }
}
