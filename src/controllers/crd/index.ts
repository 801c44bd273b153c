/** The CustomResourceDefinition controllers, which every replica runs as part of the API server. */
export { startCrdServing, type CrdServing } from './crd-serving';
export { startCrdNaming } from './crd-naming-controller';
export { startCrdCleanup } from './crd-cleanup-controller';
