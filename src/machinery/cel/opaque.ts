/**
 * Library value types (Quantity, URL, IP, CIDR, format, optional). The
 * library's runtime knows no values but its own and protobuf messages, so
 * each kind is a one-field message described here at run time. The field
 * holds the value's identity (a canonical text), which makes CEL `==` compare
 * values as upstream's Equal does; the parsed value rides along on the
 * message object under a symbol, so functions do not parse it again.
 */
import { objectType, type CelObjectType, type CelValue } from '@bufbuild/cel';
import { create, createFileRegistry, createRegistry, type DescMessage, type Message, type Registry } from '@bufbuild/protobuf';
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { T, type CelT } from './types';

const PAYLOAD = Symbol('cel opaque payload');

/** Message type names by proto package; names are what `type(x)` and errors show. */
const files: Record<string, string[]> = {
  kubernetes: ['Quantity', 'URL', 'NamedFormat'],
  net: ['IP', 'CIDR'],
  'kubernetes.authorization': ['Authorizer', 'PathCheck', 'GroupCheck', 'ResourceCheck', 'Decision'],
  '': ['optional_type'],
};

const registries = Object.entries(files).map(([pkg, names]) =>
  createFileRegistry(
    create(FileDescriptorProtoSchema, {
      name: `svc_cel_${pkg || 'root'}.proto`,
      package: pkg,
      syntax: 'proto3',
      messageType: names.map((name) => ({
        name,
        field: [{ name: 'key', jsonName: 'key', number: 1, type: FieldDescriptorProto_Type.STRING, label: FieldDescriptorProto_Label.OPTIONAL }],
      })),
    }),
    () => undefined,
  ),
);

/** The message types above, to add to the runtime's registry. */
export const opaqueRegistry: Registry = createRegistry(...registries);

export interface OpaqueKind<P> {
  readonly typeName: string;
  /** The checker's type. */
  readonly type: CelT;
  /** The runtime's type, for function signatures. */
  readonly runtime: CelObjectType;
  /** A CEL value holding `payload`; values with equal `key`s are equal in CEL. */
  wrap(payload: P, key: string): Message;
  unwrap(value: CelValue): P;
}

export function opaqueKind<P>(typeName: string): OpaqueKind<P> {
  const desc: DescMessage | undefined = opaqueRegistry.getMessage(typeName);
  if (!desc) throw new Error(`no opaque type ${typeName}`);
  return {
    typeName,
    type: T.opaque(typeName),
    runtime: objectType(desc),
    wrap(payload, key) {
      const message = create(desc, { key } as never);
      Object.defineProperty(message, PAYLOAD, { value: payload });
      return message;
    },
    unwrap(value) {
      const message = isReflectMessage(value) ? (value.message as Record<symbol, unknown>) : undefined;
      if (!message || !(PAYLOAD in message)) throw new Error(`not a ${typeName}`);
      return message[PAYLOAD] as P;
    },
  };
}
