/**
 * A function-call subset of CEL optionals (`optional.of(x).hasValue()`):
 * the parser has no `.?` / `[?]` syntax, but the format library returns
 * optionals and rules read them through these functions. Two optionals are
 * equal when both are empty or both hold a value (contents are not compared).
 */
import { celFunc, celMethod, CelScalar, isCelList, isCelMap, isCelUint, type CelValue } from '@bufbuild/cel';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { A, fn, method } from '../declarations';
import type { Library } from '../library';
import { opaqueKind } from '../opaque';
import { T } from '../types';

interface Payload {
  readonly value?: CelValue;
  readonly present: boolean;
}

export const OPTIONAL = opaqueKind<Payload>('optional_type');
const NONE: Payload = { present: false };

export const some = (value: CelValue) => OPTIONAL.wrap({ present: true, value }, 'some');
export const none = () => OPTIONAL.wrap(NONE, 'none');

function isZero(v: CelValue): boolean {
  if (v === null || v === false || v === 0 || v === 0n || v === '') return true;
  if (isCelUint(v)) return v.value === 0n;
  if (v instanceof Uint8Array || isCelList(v) || isCelMap(v)) return ('size' in v ? v.size : v.length) === 0;
  if (isReflectMessage(v)) {
    const m = v.message as unknown as { seconds?: bigint; nanos?: number };
    return m.seconds === 0n && m.nanos === 0;
  }
  return false;
}

const opt = T.optional(A);
const { DYN, BOOL } = CelScalar;

export const optionalLibrary: Library = {
  name: 'optional',
  declarations: [
    fn('optional.of', 'optional_of', [A], opt),
    fn('optional.ofNonZeroValue', 'optional_ofNonZeroValue', [A], opt),
    fn('optional.none', 'optional_none', [], T.optional(T.dyn)),
    method('hasValue', 'optional_hasValue', [opt], T.bool),
    method('value', 'optional_value', [opt], A),
    method('orValue', 'optional_orValue_value', [opt, A], A),
    method('or', 'optional_or_optional', [opt, opt], opt),
  ],
  functions: [
    celFunc('optional.of', [DYN], OPTIONAL.runtime, (v: CelValue) => some(v) as never),
    celFunc('optional.ofNonZeroValue', [DYN], OPTIONAL.runtime, (v: CelValue) => (isZero(v) ? none() : some(v)) as never),
    celFunc('optional.none', [], OPTIONAL.runtime, () => none() as never),
    celMethod('hasValue', OPTIONAL.runtime, [], BOOL, function () {
      return OPTIONAL.unwrap(this as CelValue).present;
    }),
    celMethod('value', OPTIONAL.runtime, [], DYN, function () {
      const p = OPTIONAL.unwrap(this as CelValue);
      if (!p.present) throw new Error('optional.none() dereference');
      return p.value as never;
    }),
    celMethod('orValue', OPTIONAL.runtime, [DYN], DYN, function (other: CelValue) {
      const p = OPTIONAL.unwrap(this as CelValue);
      return (p.present ? p.value : other) as never;
    }),
    celMethod('or', OPTIONAL.runtime, [OPTIONAL.runtime], OPTIONAL.runtime, function (other) {
      return (OPTIONAL.unwrap(this as CelValue).present ? this : other) as never;
    }),
  ],
};
