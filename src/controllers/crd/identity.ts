/**
 * The identity of the CRD controllers' writes: they are part of the API server (upstream runs them inside the
 * apiextensions-apiserver, writing through its loopback client as system:apiserver), not of the controller manager.
 */
import type { DeleteOptions, WriteOptions } from '../../registry/request';
import { apiserverUser } from '../controller-identity';

export { apiserverUser };

export function apiserverWrite(apiVersion: string): WriteOptions {
  return { user: apiserverUser, dryRun: false, fieldManager: 'kube-apiserver', fieldValidation: 'Ignore', warnings: [], apiVersion };
}

export function apiserverDelete(apiVersion: string): DeleteOptions {
  return { ...apiserverWrite(apiVersion), propagationPolicy: 'Background' };
}
