/** protobuf's wire types, and a field's tag: its number shifted left by 3, with the wire type in the low bits. */
export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

export const tag = (field: number, wire: number): number => (field << 3) | wire;
