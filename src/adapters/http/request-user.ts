/** The user a request runs as, set by the access filter in `res.locals.user` (Express's per-request bag). */
import type { Request, Response } from 'express';
import type { UserInfo } from '../../machinery/resource-definition';
import { localAdmin } from '../../auth/user';

export function setUser(res: Response, user: UserInfo): void {
  res.locals.user = user;
}

/** The request's user; requests that bypassed the filter (the plain-HTTP port) run as the local admin. */
export function userOf(req: Request): UserInfo {
  return (req.res?.locals.user as UserInfo | undefined) ?? localAdmin;
}
