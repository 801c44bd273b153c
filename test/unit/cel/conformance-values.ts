/**
 * Turns the conformance suite's `cel.expr.Value` messages into inputs for the
 * engine, and engine results into one comparable shape (maps sorted, uints
 * and types tagged), so a test compares a result with an expectation by value.
 */
import { celUint, isCelList, isCelMap, isCelType, isCelUint, type CelInput } from '@bufbuild/cel';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import { isMessage, toJson, type Registry } from '@bufbuild/protobuf';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';

export function toInput(v: Value, registry: Registry): CelInput {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'uint64Value':
      return celUint(k.value);
    case 'listValue':
      return k.value.values.map((e) => toInput(e, registry));
    case 'mapValue': {
      const m = new Map<string | bigint | boolean | ReturnType<typeof celUint>, CelInput>();
      for (const e of k.value.entries) m.set(toInput(e.key!, registry) as string, toInput(e.value!, registry));
      return m;
    }
    case 'objectValue': {
      const msg = anyUnpack(k.value, registry);
      if (!msg) throw new Error(`unknown message ${k.value.typeUrl}`);
      return msg;
    }
    case 'enumValue':
      return BigInt(k.value.value);
    case 'typeValue':
      return { type: k.value } as unknown as CelInput;
    case undefined:
      throw new Error('empty value');
    default:
      return k.value;
  }
}

/** A plain, ordered rendering of a value: equal renderings mean equal CEL values of the same type. */
export function render(v: unknown, registry: Registry): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return `${v}:int`;
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN:double' : `${Object.is(v, -0) ? '-0' : v}:double`;
  if (v instanceof Uint8Array) return { bytes: Array.from(v) };
  if (isCelUint(v)) return `${v.value}:uint`;
  if (isCelType(v)) return { type: v.name };
  if (typeof v === 'object' && 'type' in v && Object.keys(v).length === 1) return { type: (v as { type: string }).type };
  if (isCelList(v) || Array.isArray(v)) return Array.from(v as Iterable<unknown>, (e) => render(e, registry));
  if (isCelMap(v) || v instanceof Map) {
    const entries = Array.from((v as Map<unknown, unknown>).entries(), ([a, b]) => [render(a, registry), render(b, registry)]);
    return { map: entries.sort((x, y) => (JSON.stringify(x[0]) < JSON.stringify(y[0]) ? -1 : 1)) };
  }
  if (isReflectMessage(v)) return { [v.desc.typeName]: toJson(v.desc, v.message, { registry }) };
  if (isMessage(v)) {
    const desc = registry.getMessage(v.$typeName);
    if (!desc) throw new Error(`unknown message ${v.$typeName}`);
    return { [v.$typeName]: toJson(desc, v, { registry }) };
  }
  throw new Error(`cannot render ${String(v)}`);
}
