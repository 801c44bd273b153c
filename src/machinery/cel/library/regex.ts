/**
 * Kubernetes' regex library (library/regex.go): `s.find(re)` and
 * `s.findAll(re[, n])`, Go's FindString and FindAllString. Patterns are
 * checked with the RE2 engine the library ships (so invalid RE2 fails as
 * upstream does), then run as JavaScript expressions after translating RE2
 * spellings JavaScript lacks (named groups, leading flags, \A, \z, \pL).
 * Patterns JavaScript reads differently from RE2 remain an approximation.
 */
import { celMethod, CelScalar, listType } from '@bufbuild/cel';
import { RE2JS } from '@bufbuild/re2';
import { range, REGEX_LENGTH, STRING_TRAVERSAL, type CallEstimator } from '../cost/estimate-types';
import { chargeRuntime } from '../cost/runtime';
import { method } from '../declarations';
import type { Library } from '../library';
import { T } from '../types';

const cache = new Map<string, RegExp>();

export function compileRe2(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  try {
    RE2JS.compile(pattern);
  } catch (err) {
    throw new Error((err as Error).message);
  }
  let source = pattern;
  let flags = '';
  const lead = /^\(\?([imsU]+)\)/.exec(source);
  if (lead) {
    if (lead[1].includes('U')) throw new Error(`error parsing regexp: unsupported flag U in: \`${pattern}\``);
    flags = lead[1];
    source = source.slice(lead[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])')
    .replace(/\\([pP])([A-Z])/g, '\\$1{$2}');
  const unicode = /\\[pP]\{/.test(source) ? 'u' : '';
  const re = new RegExp(source, `${flags}${unicode}g`);
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** Go's FindAllString: non-overlapping matches, skipping an empty match right after the previous one. */
export function findAll(s: string, pattern: string, limit = -1): string[] {
  const re = compileRe2(pattern);
  const out: string[] = [];
  let pos = 0;
  let prevEnd = -1;
  while ((limit < 0 || out.length < limit) && pos <= s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) break;
    const end = m.index + m[0].length;
    if (m[0].length === 0 && m.index === prevEnd) {
      pos = m.index + 1;
      continue;
    }
    out.push(m[0]);
    prevEnd = end;
    pos = m[0].length === 0 ? end + 1 : end;
  }
  return out;
}

const { STRING, INT } = CelScalar;
const charge = (s: string, pattern: string) => chargeRuntime(Math.ceil((1 + s.length) * STRING_TRAVERSAL) * Math.ceil(pattern.length * REGEX_LENGTH));

/** Subject length times pattern length, as upstream prices regexes; every character may be a match. */
const regexCost: CallEstimator = (_id, target, args) => {
  if (!target || args.length < 1) return undefined;
  const sz = target.size();
  const strCost = range.factor(range.add(sz, range.fixed(1)), STRING_TRAVERSAL);
  return { cost: range.multiply(strCost, range.factor(args[0].size(), REGEX_LENGTH)), resultSize: { min: 0, max: sz.max } };
};

export const regexLibrary: Library = {
  name: 'regex',
  declarations: [
    method('find', 'string_find_string', [T.string, T.string], T.string),
    method('findAll', 'string_find_all_string', [T.string, T.string], T.list(T.string)),
    method('findAll', 'string_find_all_string_int', [T.string, T.string, T.int], T.list(T.string)),
  ],
  functions: [
    celMethod('find', STRING, [STRING], STRING, function (pattern: string) {
      charge(this, pattern);
      return findAll(this, pattern, 1)[0] ?? '';
    }),
    celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern: string) {
      charge(this, pattern);
      return findAll(this, pattern);
    }),
    celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern: string, n: bigint) {
      charge(this, pattern);
      return findAll(this, pattern, Number(n));
    }),
  ],
  estimators: { find: regexCost, findAll: regexCost },
};
