/**
 * go-yaml's limits on aliases, which js-yaml does not have. js-yaml gives every alias of a collection the very
 * object its anchor holds, so a request of a few hundred bytes can stand for billions of nodes once anything walks
 * it ("billion laughs"), and an anchor whose value contains its own alias becomes a cycle. Upstream's decoder
 * refuses both: it counts every node it decodes (each map key and value, each alias and everything an alias brings
 * in again) and fails once more than a set share of them came through aliases.
 *
 * The walk here counts as go-yaml does, in the document's order, reading the size of a shared object once: it stops
 * as soon as the share is exceeded, so a bomb costs it a few thousand steps.
 */
import { isAlias, parseDocument, visit } from 'yaml';

// go-yaml's alias ratio: 99% of a document may come from aliases up to 400,000 decoded nodes, 10% from 4,000,000.
const ratioRangeLow = 400_000;
const ratioRangeHigh = 4_000_000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ratioRangeLow) return 0.99;
  if (decodeCount >= ratioRangeHigh) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - ratioRangeLow) / (ratioRangeHigh - ratioRangeLow));
}

class AliasError extends Error {}

/** go-yaml's message for a document whose aliases go too far, or undefined when there is nothing to refuse. */
export function aliasProblem(value: unknown, text: string): string | undefined {
  try {
    countNodes(value);
    return undefined;
  } catch (e) {
    if (!(e instanceof AliasError)) throw e;
    return e.message === 'cycle' ? `yaml: anchor '${selfContainingAnchor(text) ?? ''}' value contains itself` : e.message;
  }
}

function countNodes(root: unknown): void {
  let decodeCount = 1; // the document
  let aliasCount = 0;
  const sizes = new Map<object, number>(); // every collection seen, with the nodes it stands for once visited
  const open = new Set<object>(); // the collections being visited, root first
  const counted = (decoded: number, aliased: number) => {
    decodeCount += decoded;
    aliasCount += aliased;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
      throw new AliasError('yaml: document contains excessive aliasing');
    }
  };
  // The nodes `v` stands for, itself included; a collection met again is an alias: its node, then all of it again.
  const node = (v: unknown): number => {
    if (v === null || typeof v !== 'object') {
      counted(1, 0);
      return 1;
    }
    const known = sizes.get(v);
    if (known !== undefined) {
      counted(1 + known, known);
      return 1 + known;
    }
    if (open.has(v)) throw new AliasError('cycle');
    open.add(v);
    counted(1, 0);
    let size = 1;
    if (Array.isArray(v)) {
      for (const item of v) size += node(item);
    } else {
      for (const key of Object.keys(v)) {
        counted(1, 0);
        size += 1 + node((v as Record<string, unknown>)[key]);
      }
    }
    open.delete(v);
    sizes.set(v, size);
    return size;
  };
  node(root);
}

/** The anchor whose value holds an alias of itself, read again with the `yaml` package (which keeps names). */
function selfContainingAnchor(text: string): string | undefined {
  let found: string | undefined;
  visit(parseDocument(text, { uniqueKeys: false }), {
    Alias(_key, alias, path) {
      if (!isAlias(alias)) return undefined;
      if (path.some((n) => (n as { anchor?: string }).anchor === alias.source)) {
        found = alias.source;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
