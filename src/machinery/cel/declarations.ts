/**
 * Function declarations the checker resolves calls against. Each overload
 * has an id in cel-go's style (e.g. `add_string`, `matches_string`) because
 * cost estimation is keyed by overload, as upstream's is.
 */
import { T, type CelT } from './types';

export interface Overload {
  readonly id: string;
  /** As written in the AST: `_+_`, `size`, `sets.contains`. */
  readonly name: string;
  /** Receiver-style (`x.f(y)`): the receiver is params[0]. */
  readonly member: boolean;
  readonly params: readonly CelT[];
  readonly result: CelT;
  /** The runtime function to call instead of `name`, when overloads need different implementations (e.g. typed zero sums). */
  readonly runtimeName?: string;
}

export const fn = (name: string, id: string, params: CelT[], result: CelT): Overload => ({ id, name, member: false, params, result });
export const method = (name: string, id: string, params: CelT[], result: CelT): Overload => ({ id, name, member: true, params, result });

export const A = T.param('A');
export const B = T.param('B');

/** Overloads grouped by function name, for the checker. */
export class Declarations {
  private readonly byName = new Map<string, Overload[]>();

  constructor(...groups: readonly (readonly Overload[])[]) {
    for (const group of groups) for (const o of group) this.add(o);
  }

  add(o: Overload): void {
    const list = this.byName.get(o.name) ?? [];
    list.push(o);
    this.byName.set(o.name, list);
  }

  overloads(name: string): readonly Overload[] {
    return this.byName.get(name) ?? [];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }
}
