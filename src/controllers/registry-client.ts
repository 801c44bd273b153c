/**
 * The registry as controllers, the post-start hooks and leader election use
 * it: its public verbs, nothing of its insides. Composition hands them one
 * whose writes are audited under the writer's identity (audited-client.ts),
 * as kube-controller-manager's requests are audited over HTTP.
 */
import type { Registry } from '../registry/registry';

export type RegistryClient = Pick<Registry, 'definitions' | 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete' | 'deleteCollection' | 'watch'>;
