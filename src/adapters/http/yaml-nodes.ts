/**
 * What go-yaml's decoder checks and js-yaml does not, read off js-yaml's one parse through its listener, which
 * sees every node as it is composed:
 * - repeated mapping keys, worded as go-yaml's strict decoder words them (`line 7: key "a" already set in map`);
 *   js-yaml with `json: true` keeps the last value, as upstream;
 * - go-yaml's limits on aliases. js-yaml gives every alias of a collection the very object its anchor holds, so a
 *   few hundred bytes can stand for billions of nodes once anything walks them ("billion laughs"), and an anchor
 *   whose value contains its own alias becomes a cycle. go-yaml counts every node it decodes (each key, each value,
 *   each alias and everything an alias brings in again) and fails once more than a set share came through aliases.
 *   Here a collection's node count is kept when it closes, so an alias costs one step however much it stands for.
 * A key is a child that is not the value of the one before (a key followed by `:`); its mapping is the parent that
 * closes as one (in a flow sequence, `[a: 1]` pairs are maps of their own and are not compared).
 *
 * js-yaml may compose a stretch of text, give it up and read it again (a property before a scalar is first tried
 * as the start of a block mapping): nodes given up are either the node itself, read again (a parent whose only
 * child has the parent's result), or siblings that a child opening no later than them replaces.
 */
import yaml, { type State } from 'js-yaml';

/** The parts of js-yaml's state its listener reads that its typings leave out. */
interface ComposeState extends State {
  tag: string | null;
  anchorMap: Record<string, unknown>;
}

/** go-yaml's refusal of a document's aliases, with its message. */
export class YamlAliasError extends Error {}

// go-yaml's alias ratio: 99% of a document may come from aliases up to 400,000 decoded nodes, 10% from 4,000,000.
const ratioRangeLow = 400_000;
const ratioRangeHigh = 4_000_000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ratioRangeLow) return 0.99;
  if (decodeCount >= ratioRangeHigh) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - ratioRangeLow) / (ratioRangeHigh - ratioRangeLow));
}

/** A node being composed. */
interface Frame {
  /** Where and on which line (from 0) it opened, and its place in document order. */
  at: number;
  line: number;
  order: number;
  children: number;
  lastChildAt: number;
  lastChildResult: unknown;
  /** Nodes its children stand for, and how many of those came through aliases. */
  decoded: number;
  aliased: number;
  /** The children that are keys if this turns out a mapping (the first keyCount), with their lines. */
  keyCount: number;
  keys: unknown[];
  keyLines: number[];
  /** The last child was a key followed by `:`, so the next is its value. */
  valueNext: boolean;
}

/** One load of a YAML text: the value, and each repeated key in go-yaml's words. Throws YAMLException, then YamlAliasError. */
export function loadYaml(text: string): { object: unknown; duplicates: string[] } {
  const nodes = new NodeWatch(text);
  // CORE_SCHEMA: timestamps stay strings, as sigs.k8s.io/yaml leaves them.
  const object = yaml.load(text, { schema: yaml.CORE_SCHEMA, json: true, listener: nodes.listener });
  // After the whole text parsed, as go-yaml parses before it decodes: a syntax error further on is what it reports.
  if (nodes.aliasProblem) throw new YamlAliasError(nodes.aliasProblem);
  return { object, duplicates: nodes.duplicates() };
}

class NodeWatch {
  private readonly frames: Frame[] = [];
  private depth = 0;
  private order = 0;
  private decodeCount = 1; // the document
  private aliasCount = 0;
  /** Every collection closed, with the nodes it stands for: an alias of it brings in as many again. */
  private readonly sizes = new Map<object, number>();
  private found: Array<{ order: number; message: string }> | undefined;
  /** The first of go-yaml's alias refusals, in document order (its decoder stops there). */
  aliasProblem: string | undefined;
  /** The last stretch of blanks and comments skipped: nodes closing inside it need not skip it again. */
  private skippedFrom = -1;
  private skippedTo = -1;

  constructor(private readonly text: string) {}

  readonly listener = (event: 'open' | 'close', state: State): void => {
    if (event === 'open') this.open(state as ComposeState);
    else this.close(state as ComposeState);
  };

  duplicates(): string[] {
    if (!this.found) return [];
    return this.found.sort((a, b) => a.order - b.order).map((f) => f.message); // a mapping's before those inside it, as go-yaml walks
  }

  private open(state: ComposeState): void {
    const parent = this.depth > 0 ? this.frames[this.depth - 1] : undefined;
    if (parent && parent.children > 0 && state.position <= parent.lastChildAt) this.forgetChildren(parent);
    if (parent) parent.lastChildAt = state.position;
    let f = this.frames[this.depth];
    if (!f) {
      f = { at: 0, line: 0, order: 0, children: 0, lastChildAt: -1, lastChildResult: undefined, decoded: 0, aliased: 0, keyCount: 0, keys: [], keyLines: [], valueNext: false };
      this.frames.push(f);
    }
    f.at = state.position;
    f.line = state.line;
    f.order = this.order++;
    f.children = 0; // the rest is set as the first child closes
    f.lastChildAt = -1;
    this.depth++;
    this.count(1, 0); // every node as it starts, as go-yaml counts
  }

  private close(state: ComposeState): void {
    const f = this.frames[--this.depth];
    const result: unknown = state.result;
    let decoded: number;
    let aliased: number;
    if (f.children === 1 && Object.is(f.lastChildResult, result)) {
      // The node its only child composed (a block node read as the start of a mapping that was none): counted there.
      this.decodeCount--;
      decoded = f.decoded;
      aliased = f.aliased;
    } else if (state.kind === 'mapping' || state.kind === 'sequence') {
      if (state.kind === 'mapping' && f.children > 0 && f.keyCount > ownKeys(result as object)) this.repeatedKeys(f);
      decoded = f.children > 0 ? 1 + f.decoded : 1;
      aliased = f.children > 0 ? f.aliased : 0;
      this.sizes.set(result as object, decoded);
    } else {
      if (f.children > 0) this.forgetChildren(f); // a stretch read as the start of a mapping, then as this scalar
      const alias = state.kind === null && state.tag === null && result !== null && result !== undefined;
      const size = alias ? this.aliasSize(result, state) : 0;
      if (size > 0) this.count(size, size); // all it stands for, decoded again
      decoded = 1 + size;
      aliased = size;
    }
    const parent = this.depth > 0 ? this.frames[this.depth - 1] : undefined;
    if (!parent) return;
    parent.lastChildResult = result;
    if (parent.children++ === 0) {
      parent.decoded = decoded;
      parent.aliased = aliased;
      parent.keyCount = 0;
      parent.valueNext = false;
    } else {
      parent.decoded += decoded;
      parent.aliased += aliased;
    }
    if (parent.valueNext) parent.valueNext = false;
    else {
      // Named only if the parent is a mapping with a repeated key: js-yaml's String of a large key is costly.
      parent.keys[parent.keyCount] = result;
      parent.keyLines[parent.keyCount++] = f.line;
      parent.valueNext = this.followedByColon(state.position);
    }
  }

  /** The nodes an alias brings in again: a scalar, or a collection composed in full (else the anchor holds the alias). */
  private aliasSize(value: unknown, state: ComposeState): number {
    if (typeof value !== 'object' || value === null) return 1;
    const size = this.sizes.get(value);
    if (size !== undefined) return size;
    if (this.aliasProblem === undefined) {
      const anchor = Object.keys(state.anchorMap).find((name) => state.anchorMap[name] === value) ?? '';
      this.aliasProblem = `yaml: anchor '${anchor}' value contains itself`;
    }
    return 0;
  }

  private count(decoded: number, aliased: number): void {
    this.decodeCount += decoded;
    this.aliasCount += aliased;
    const { aliasCount, decodeCount } = this;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
      this.aliasProblem ??= 'yaml: document contains excessive aliasing';
    }
  }

  /** Children composed and then given up: they count for nothing. */
  private forgetChildren(f: Frame): void {
    this.decodeCount -= f.decoded;
    this.aliasCount -= f.aliased;
    f.children = 0;
    f.decoded = f.aliased = f.keyCount = 0;
    f.valueNext = false;
  }

  /** For a mapping with fewer members than keys: which keys came again. */
  private repeatedKeys(f: Frame): void {
    const seen = new Set<string>();
    for (let i = 0; i < f.keyCount; i++) {
      const key = keyName(f.keys[i]);
      if (key === undefined) continue;
      if (seen.has(key)) (this.found ??= []).push({ order: f.order, message: `line ${f.keyLines[i] + 1}: key ${JSON.stringify(key)} already set in map` });
      seen.add(key);
    }
  }

  /** Whether `:` comes next after blanks and comments: the node just closed is a key. */
  private followedByColon(from: number): boolean {
    let i = from;
    if (i >= this.skippedFrom && i <= this.skippedTo) i = this.skippedTo;
    else {
      const text = this.text;
      for (;;) {
        const c = text.charCodeAt(i);
        if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
        else if (c === 0x23 /* # */) {
          const eol = text.indexOf('\n', i);
          i = eol < 0 ? text.length : eol;
        } else break;
      }
      this.skippedFrom = from;
      this.skippedTo = i;
    }
    return this.text.charCodeAt(i) === 0x3a;
  }
}

/** A key as js-yaml stores it (String of the value, objects as `[object Object]`); undefined where js-yaml refuses it. */
function keyName(key: unknown): string | undefined {
  if (typeof key === 'string') return key;
  if (key === null || typeof key !== 'object') return String(key);
  if (Array.isArray(key)) return key.some(Array.isArray) ? undefined : String(key.map((k) => (plainObject(k) ? '[object Object]' : k)));
  return plainObject(key) ? '[object Object]' : String(key);
}

/** Members of a mapping js-yaml built: fewer than its keys when a key came again. */
function ownKeys(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

const plainObject = (v: unknown) => Object.prototype.toString.call(v) === '[object Object]';
