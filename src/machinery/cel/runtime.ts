/**
 * The evaluation side of the engine: @bufbuild/cel's planner with the
 * function libraries Kubernetes enables. The type checker (checker.ts) knows
 * the same functions by their declarations; this file binds implementations.
 */
import { celEnv, type CelEnv, type CelFunc, type CelType } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { Registry } from '@bufbuild/protobuf';

export interface RuntimeEnvOptions {
  /** Protobuf types beyond the well-known ones (tests use the conformance messages). */
  registry?: Registry;
  namespace?: string;
  variables?: Record<string, CelType>;
}

/** Implementations, in resolution order: later entries override earlier ones with the same signature. */
export function runtimeFunctions(): CelFunc[] {
  return [...strings];
}

export function runtimeEnv(options: RuntimeEnvOptions = {}): CelEnv {
  return celEnv({ registry: options.registry, namespace: options.namespace, variables: options.variables, funcs: runtimeFunctions() });
}
