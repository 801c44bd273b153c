/**
 * The evaluation side of the engine: @bufbuild/cel's planner with the cel-go
 * string extension, the Kubernetes libraries and the cost guard. The type
 * checker (checker.ts) knows the same functions by their declarations.
 */
import { celEnv, type CelEnv, type CelFunc } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { createRegistry, type Registry } from '@bufbuild/protobuf';
import { loopGuard } from './cost/runtime';
import { kubernetesLibraries } from './libraries';
import { opaqueRegistry } from './opaque';

export interface RuntimeEnvOptions {
  /** Protobuf types beyond the well-known ones and ours (tests use the conformance messages). */
  registry?: Registry;
  namespace?: string;
}

export function runtimeFunctions(): CelFunc[] {
  return [...strings, ...kubernetesLibraries.flatMap((l) => l.functions), loopGuard];
}

export function runtimeEnv(options: RuntimeEnvOptions = {}): CelEnv {
  const registry = options.registry ? createRegistry(options.registry, opaqueRegistry) : opaqueRegistry;
  return celEnv({ registry, namespace: options.namespace, funcs: runtimeFunctions() });
}
