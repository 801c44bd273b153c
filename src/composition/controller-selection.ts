/** --controllers checked with the other flags, before anything is written (the manager checks it again when built). */
import { controllerDescriptors, type ControllerContext } from '../controllers';

/** The names and aliases --controllers may use. */
export function knownControllerNames(): Set<string> {
  // The descriptors only name controllers until one is started, so no context is needed to list them.
  const descriptors = controllerDescriptors({} as ControllerContext);
  return new Set(descriptors.flatMap((d) => [d.name, ...(d.aliases ?? [])]));
}

/** The first entry of --controllers that names no controller, if any. */
export function unknownController(selection: string[]): string | undefined {
  const known = knownControllerNames();
  return selection.map((e) => (e.startsWith('-') ? e.slice(1) : e)).find((name) => name !== '*' && !known.has(name));
}
