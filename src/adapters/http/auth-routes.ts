/**
 * The create-only APIs of authentication and authorization: the access
 * reviews, SelfSubjectReview, TokenReview and the serviceaccounts/token subresource.
 * They are answered, not stored. Stock kubectl speaks the upstream groups
 * (authorization.k8s.io, authentication.k8s.io), so both those and ours are served.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isPlainObject, KObject } from '../../machinery/object';
import { errors } from '../../machinery/status';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { AuthorizerPort } from '../../ports/authorizer.port';
import type { Registry } from '../../registry/registry';
import { answerReview, ReviewKind } from '../../auth/reviews';
import { answerTokenReview, type TokenAuthenticator } from '../../auth/token-review';
import { issueToken, TokenRequestDeps } from '../../auth/token-request';
import { decodeObjectBody, negotiate } from './media';
import type { DiscoveryOnly } from './discovery';
import { send, sendError } from './respond';
import { userOf } from './request-user';
import { requestInfoOf } from './request-info';

export const authorizationGroups = ['authorization.svc.io', 'authorization.k8s.io'];
export const authenticationGroups = ['authentication.svc.io', 'authentication.k8s.io'];

/** The review kinds as discovery lists them (create only). */
export const reviewResources: Array<{ groups: string[]; plural: string; kind: ReviewKind | 'TokenReview'; namespaced: boolean }> = [
  { groups: authorizationGroups, plural: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false },
  { groups: authorizationGroups, plural: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false },
  { groups: authorizationGroups, plural: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true },
  { groups: authorizationGroups, plural: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false },
  { groups: authenticationGroups, plural: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false },
  { groups: authenticationGroups, plural: 'tokenreviews', kind: 'TokenReview', namespaced: false },
];

/** The reviews for discovery: create only, in our groups and the upstream ones. */
export const reviewDiscovery: DiscoveryOnly[] = reviewResources.flatMap((r) =>
  r.groups.map((group) => ({
    group,
    version: 'v1',
    kind: r.kind,
    plural: r.plural,
    singular: r.plural.slice(0, -1),
    namespaced: r.namespaced,
    shortNames: [],
    categories: [],
    subresources: {},
    verbs: ['create'],
  })),
);

export interface AuthRoutesDeps {
  authorizer: AuthorizerPort;
  registry: Registry;
  serviceAccounts?: ResourceDefinition;
  tokens?: TokenRequestDeps;
  /** The bearer-token authenticators TokenReview asks, and the server's audiences (--api-audiences). */
  tokenReview: { authenticator: TokenAuthenticator; apiAudiences: string[] };
}

/** Decodes a body of `kind` in one of `groups` (v1); apiVersion and kind default as upstream fills them from the URL. */
function decodeBody(req: Request, groups: string[], kind: string, urlGroup: string): KObject {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const decoded = decodeObjectBody(req.get('content-type'), raw).object;
  if (!isPlainObject(decoded)) throw errors.badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: the body must be a JSON object`);
  const obj = decoded as KObject;
  const apiVersion = (obj.apiVersion as string | undefined) || `${urlGroup}/v1`;
  if (!groups.map((g) => `${g}/v1`).includes(apiVersion)) {
    throw errors.badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${urlGroup}/v1)`);
  }
  if (obj.kind && obj.kind !== kind) {
    throw errors.badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`);
  }
  if (!isPlainObject(obj.metadata)) obj.metadata = {};
  return { ...obj, apiVersion, kind };
}

function respond(req: Request, res: Response, obj: KObject): void {
  const fmt = negotiate(req.get('accept'));
  send(req, res, 201, obj, fmt === 'yaml' ? 'yaml' : 'json');
}

/**
 * The review APIs and TokenRequest, dispatched from RequestInfo (resource requests that no stored kind serves):
 * POST answers, any other method is a 405.
 */
export function authRouter(deps: AuthRoutesDeps): RequestHandler {
  const reviews = new Map<string, { review: (typeof reviewResources)[number]; group: string }>();
  for (const r of reviewResources) for (const group of r.groups) reviews.set(`${group}/${r.plural}`, { review: r, group });
  const sa = deps.serviceAccounts;
  return (req: Request, res: Response, next: NextFunction) => {
    const info = requestInfoOf(req);
    if (!info.resourceRequest || info.apiVersion !== 'v1' || info.parts.includes('')) return next();
    const found = info.parts.length === 1 && info.verb !== 'watch' ? reviews.get(`${info.apiGroup}/${info.resource}`) : undefined;
    if (found) {
      const { review: r, group } = found;
      if (r.namespaced !== (info.namespacedPath === true)) return next();
      if (req.method !== 'POST') return sendError(req, res, errors.methodNotAllowed(req.method.toLowerCase(), { group, plural: r.plural }));
      void (async () => {
        const body = decodeBody(req, r.groups, r.kind, group);
        if (r.kind === 'TokenReview') return respond(req, res, await answerTokenReview(body, deps.tokenReview.authenticator, deps.tokenReview.apiAudiences));
        respond(req, res, answerReview({ kind: r.kind, group, body, namespace: info.namespace, requester: userOf(req) }, deps.authorizer));
      })().catch((e) => sendError(req, res, e));
      return;
    }
    const tokenRequest = sa && info.apiGroup === '' && info.namespacedPath && info.resource === 'serviceaccounts' && info.subresource === 'token' && info.parts.length === 3;
    if (!tokenRequest) return next();
    const plural = 'serviceaccounts/token';
    if (req.method !== 'POST') return sendError(req, res, errors.methodNotAllowed(req.method.toLowerCase(), { group: '', plural }));
    void (async () => {
      const name = info.name!;
      if (!deps.tokens) throw errors.notFound({ group: '', plural }, name);
      const body = decodeBody(req, authenticationGroups, 'TokenRequest', authenticationGroups[1]);
      const ns = info.namespace!;
      const account = (await deps.registry.get(sa, ns, name)).object;
      const answer = await issueToken(deps.tokens, body.apiVersion!.split('/')[0], body, { namespace: ns, name: account.metadata.name!, uid: account.metadata.uid! });
      respond(req, res, answer);
    })().catch((e) => sendError(req, res, e));
  };
}
