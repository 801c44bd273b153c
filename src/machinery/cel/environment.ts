/**
 * A compile environment: declared variables (with size bounds for cost
 * estimation) and the function libraries. The runtime side is shared, since
 * implementations do not depend on variable declarations.
 */
import type { CelEnv } from '@bufbuild/cel';
import { Declarations } from './declarations';
import type { CallEstimator, SizeBounds } from './cost/estimate-types';
import type { Library } from './library';
import { kubernetesLibraries } from './libraries';
import { runtimeEnv } from './runtime';
import { standardDeclarations } from './stdlib';
import type { CelT } from './types';

export interface VariableDecl {
  readonly type: CelT;
  readonly bounds?: SizeBounds;
}

let sharedRuntime: CelEnv | undefined;

export class CelEnvironment {
  readonly declarations: Declarations;
  readonly estimators: Readonly<Record<string, CallEstimator>>;
  readonly variables: ReadonlyMap<string, VariableDecl>;

  constructor(variables: Readonly<Record<string, VariableDecl>>, libraries: readonly Library[] = kubernetesLibraries) {
    this.variables = new Map(Object.entries(variables));
    this.declarations = new Declarations(standardDeclarations, ...libraries.map((l) => l.declarations));
    this.estimators = Object.assign({}, ...libraries.map((l) => l.estimators ?? {}));
  }

  get runtime(): CelEnv {
    sharedRuntime ??= runtimeEnv();
    return sharedRuntime;
  }

  variableTypes(): ReadonlyMap<string, CelT> {
    return new Map([...this.variables].map(([name, v]) => [name, v.type]));
  }
}
