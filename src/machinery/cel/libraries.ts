/** The Kubernetes function libraries, in the order the runtime registers them. */
import type { Library } from './library';

export const kubernetesLibraries: readonly Library[] = [];
