/** How the built-in controllers appear to the registry: kube-controller-manager's service accounts. */
import type { UserInfo } from '../machinery/resource-definition';
import type { DeleteOptions, WriteOptions } from '../registry/request';

export function serviceAccountUser(name: string): UserInfo {
  return {
    username: `system:serviceaccount:kube-system:${name}`,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  };
}

/** The apiserver's own loopback identity (upstream's system:apiserver), for its post-start hooks' writes. */
export const apiserverUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] };

export function controllerWrite(user: UserInfo, apiVersion: string): WriteOptions {
  return { user, dryRun: false, fieldManager: 'kube-controller-manager', fieldValidation: 'Ignore', warnings: [], apiVersion };
}

/** Deletes in the background, so that the garbage collector, not the deleter, handles dependents. */
export function controllerDelete(user: UserInfo, apiVersion: string): DeleteOptions {
  return { ...controllerWrite(user, apiVersion), propagationPolicy: 'Background' };
}

export const statusOf = (e: unknown) => (e as { status?: { code?: number } }).status?.code;

export type Log = (level: 'debug' | 'info' | 'warn' | 'error', msg: string, extra?: object) => void;
