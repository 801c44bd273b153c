/** Upstream's 403 text for a denied request: `<resource> "<name>" is forbidden: User "u" cannot <verb> ...`. */
import { ApiError, errors } from '../machinery/status';
import type { AuthzAttributes } from '../ports/authorizer.port';

export function forbiddenMessage(a: AuthzAttributes): string {
  const user = a.user.username;
  if (!a.resourceRequest) return `User "${user}" cannot ${a.verb} path "${a.path ?? ''}"`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : (a.resource ?? '');
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `User "${user}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup ?? ''}" ${scope}`;
}

/** The Forbidden Status; `name` overrides the attributes' name in the message (impersonation names the target). */
export function forbiddenError(a: AuthzAttributes, reason: string, name = a.name ?? ''): ApiError {
  const why = reason ? `${forbiddenMessage(a)}: ${reason}` : forbiddenMessage(a);
  if (!a.resourceRequest) return errors.forbiddenUntyped(`forbidden: ${why}`);
  return errors.forbidden({ group: a.apiGroup ?? '', plural: a.resource ?? '', kind: a.resource ?? '' }, name, why);
}
