/**
 * Field paths that may start empty: upstream walks objects from a nil
 * field.Path, so the first step is the path itself (`spec`, or `[key]` for a
 * map entry, `[0]` for a list item).
 */
import { FieldPath } from '../field-errors';

export type OptionalPath = FieldPath | undefined;

export const childPath = (p: OptionalPath, name: string): FieldPath => (p ? p.child(name) : FieldPath.root(name));
export const keyPath = (p: OptionalPath, k: string): FieldPath => (p ? p.key(k) : FieldPath.root(`[${k}]`));
export const indexPath = (p: OptionalPath, i: number): FieldPath => (p ? p.index(i) : FieldPath.root(`[${i}]`));
