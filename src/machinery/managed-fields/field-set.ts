/**
 * A set of field paths stored as a tree: at each level the elements that
 * are members themselves, and the elements under which deeper members live.
 * An element can be both (a map added as a whole plus its entries). The set
 * operations are structured-merge-diff's: Difference is path-by-path,
 * RecursiveDifference also drops everything below a removed member.
 *
 * A set is only written while it is built (insert, descend); the operations
 * return new sets that share the subtrees they leave unchanged.
 */
import { compareElements, Path, PathElement, serializeElement } from './path';

export interface Child {
  pe: PathElement;
  set: FieldSet;
}

/** What an empty set reads: most sets a write compares are empty, and two Maps each cost more than the set. */
const none: ReadonlyMap<string, never> = new Map<string, never>();

export class FieldSet {
  private ownMembers: Map<string, PathElement> | undefined;
  private ownChildren: Map<string, Child> | undefined;

  /** Members keyed by their FieldsV1 spelling (serializeElement). */
  get members(): ReadonlyMap<string, PathElement> {
    return this.ownMembers ?? none;
  }

  get children(): ReadonlyMap<string, Child> {
    return this.ownChildren ?? none;
  }

  addMember(k: string, pe: PathElement): void {
    (this.ownMembers ??= new Map()).set(k, pe);
  }

  setChild(k: string, c: Child): void {
    (this.ownChildren ??= new Map()).set(k, c);
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  insert(p: Path): void {
    if (p.length === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < p.length - 1; i++) s = s.descend(p[i]);
    s.addMember(serializeElement(p[p.length - 1]), p[p.length - 1]);
  }

  /** The child set under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    const k = serializeElement(pe);
    let c = this.children.get(k);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.setChild(k, c);
    }
    return c.set;
  }

  has(p: Path): boolean {
    if (p.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1 && s; i++) s = s.children.get(serializeElement(p[i]))?.set;
    return !!s && s.members.has(serializeElement(p[p.length - 1]));
  }

  /** The set below `pe` (empty when there is none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(serializeElement(pe))?.set ?? new FieldSet();
  }

  empty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  size(): number {
    let n = this.members.size;
    for (const c of this.children.values()) n += c.set.size();
    return n;
  }

  union(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.addMember(k, pe);
    for (const [k, pe] of o.members) out.addMember(k, pe);
    for (const [k, c] of this.children) {
      const other = o.children.get(k);
      out.setChild(k, other ? { pe: c.pe, set: c.set.union(other.set) } : c);
    }
    for (const [k, c] of o.children) if (!this.children.has(k)) out.setChild(k, c);
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (o.members.has(k)) out.addMember(k, pe);
    for (const [k, c] of this.children) {
      const other = o.children.get(k);
      if (!other) continue;
      const s = c.set.intersection(other.set);
      if (!s.empty()) out.setChild(k, { pe: c.pe, set: s });
    }
    return out;
  }

  /** Removes the paths of `o`, one by one (a member of `o` does not remove what lies below it). */
  difference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!o.members.has(k)) out.addMember(k, pe);
    for (const [k, c] of this.children) {
      const other = o.children.get(k);
      if (!other) {
        if (!c.set.empty()) out.setChild(k, c);
        continue;
      }
      const s = c.set.difference(other.set);
      if (!s.empty()) out.setChild(k, { pe: c.pe, set: s });
    }
    return out;
  }

  /** Removes the paths of `o` and everything below its members. */
  recursiveDifference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!o.members.has(k)) out.addMember(k, pe);
    for (const [k, c] of this.children) {
      if (o.members.has(k)) continue;
      const other = o.children.get(k);
      if (!other) {
        if (!c.set.empty()) out.setChild(k, c);
        continue;
      }
      const s = c.set.recursiveDifference(other.set);
      if (!s.empty()) out.setChild(k, { pe: c.pe, set: s });
    }
    return out;
  }

  equals(o: FieldSet): boolean {
    return this.difference(o).empty() && o.difference(this).empty();
  }

  /** Members sorted, then each child's paths in element order (upstream's Iterate). */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const pe of [...this.members.values()].sort(compareElements)) out.push([...prefix, pe]);
    for (const c of [...this.children.values()].sort((a, b) => compareElements(a.pe, b.pe))) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  /** Keeps only the paths `keep` accepts (each path is judged on its own). */
  filter(keep: (p: Path) => boolean): FieldSet {
    return FieldSet.of(...this.paths().filter(keep));
  }
}
