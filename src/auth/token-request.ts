/**
 * TokenRequest (`POST .../serviceaccounts/{name}/token`): validates the
 * request as upstream, then signs a bound service-account JWT.
 */
import { fieldErrors, FieldError } from '../machinery/field-errors';
import { isPlainObject, KObject } from '../machinery/object';
import { errors } from '../machinery/status';
import type { ClockPort } from '../ports/clock.port';
import type { TokenPort } from '../ports/token.port';
import { privateClaim, ServiceAccountClaims } from './authn/service-account';
import { serviceAccountUsername } from './user';

export interface TokenIssuerOptions {
  issuer: string;
  apiAudiences: string[];
  /** 0: no cap. */
  maxExpirationSeconds: number;
}

/** Resolves served objects the token may be bound to (from the watch cache). */
export interface BindableObjects {
  /** The object's uid; undefined when absent; throws a 400 ApiError when the kind is not served. */
  uidOf(apiVersion: string, kind: string, namespace: string, name: string): string | undefined;
}

export interface TokenRequestDeps {
  tokens: TokenPort;
  clock: ClockPort;
  newId: () => string;
  objects: BindableObjects;
  options: TokenIssuerOptions;
}

const minExpiration = 600;
const defaultExpiration = 3600;

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export async function issueToken(
  deps: TokenRequestDeps,
  group: string,
  body: KObject,
  serviceAccount: { namespace: string; name: string; uid: string },
): Promise<KObject> {
  const spec = (isPlainObject(body.spec) ? body.spec : {}) as { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: Record<string, string> };
  const expirationSeconds = spec.expirationSeconds ?? defaultExpiration;
  const errs: FieldError[] = [];
  if (expirationSeconds < minExpiration) errs.push(fieldErrors.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (expirationSeconds > 2 ** 32) errs.push(fieldErrors.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  const ref = spec.boundObjectRef;
  if (ref) {
    if (!ref.kind) errs.push(fieldErrors.required('spec.boundObjectRef.kind', ''));
    if (!ref.name) errs.push(fieldErrors.required('spec.boundObjectRef.name', ''));
  }
  if (errs.length) throw errors.invalid({ group, kind: 'TokenRequest' }, serviceAccount.name, errs);
  let bound: ServiceAccountClaims['boundObjectRef'];
  if (ref) {
    const apiVersion = ref.apiVersion || 'v1';
    const uid = deps.objects.uidOf(apiVersion, ref.kind, serviceAccount.namespace, ref.name);
    if (!uid) throw errors.notFound({ group: '', plural: ref.kind.toLowerCase() }, ref.name);
    if (ref.uid && ref.uid !== uid) {
      throw errors.conflict({ group: '', plural: ref.kind.toLowerCase() }, ref.name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
    }
    bound = { apiVersion, kind: ref.kind, name: ref.name, uid };
  }
  const { options } = deps;
  const granted = options.maxExpirationSeconds > 0 ? Math.min(expirationSeconds, options.maxExpirationSeconds) : expirationSeconds;
  const audiences = spec.audiences?.length ? spec.audiences : options.apiAudiences;
  const now = deps.clock.now();
  const iat = Math.floor(now.getTime() / 1000);
  const claims: ServiceAccountClaims = { namespace: serviceAccount.namespace, serviceaccount: { name: serviceAccount.name, uid: serviceAccount.uid } };
  if (bound) claims.boundObjectRef = bound;
  const token = await deps.tokens.sign({
    iss: options.issuer,
    sub: serviceAccountUsername(serviceAccount.namespace, serviceAccount.name),
    aud: audiences,
    iat,
    nbf: iat,
    exp: iat + granted,
    jti: deps.newId(),
    [privateClaim]: claims,
  });
  return {
    kind: 'TokenRequest',
    apiVersion: body.apiVersion,
    metadata: { name: serviceAccount.name, namespace: serviceAccount.namespace, creationTimestamp: rfc3339(now) },
    spec: { audiences, expirationSeconds: granted, boundObjectRef: ref ? { ...ref, uid: bound!.uid } : null },
    status: { token, expirationTimestamp: rfc3339(new Date((iat + granted) * 1000)) },
  } as KObject;
}
