/**
 * The identity of the CRD controllers' writes: they are part of the API server (upstream runs them inside the
 * apiextensions-apiserver, writing through its loopback client as system:apiserver), not of the controller manager.
 */
export { apiserverUser } from '../controller-identity';
