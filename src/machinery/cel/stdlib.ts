/**
 * Declarations of CEL's standard functions and of cel-go's string extension
 * (version 2, as Kubernetes enables it), with cross-type numeric comparisons
 * on (Kubernetes 1.28+). The runtime implementations are the library's.
 */
import { A, B, fn, method, type Overload } from './declarations';
import { T, type CelT } from './types';

const { int, uint, double, bool, string, bytes, timestamp, duration, dyn } = T;
const K = T.param('K');
const V = T.param('V');

const named: [string, CelT][] = [
  ['int', int],
  ['uint', uint],
  ['double', double],
  ['bool', bool],
  ['string', string],
  ['bytes', bytes],
  ['timestamp', timestamp],
  ['duration', duration],
];

function comparisons(): Overload[] {
  const out: Overload[] = [];
  const ops: [string, string][] = [
    ['_<_', 'less'],
    ['_<=_', 'less_equals'],
    ['_>_', 'greater'],
    ['_>=_', 'greater_equals'],
  ];
  const same: [string, CelT][] = [['bool', bool], ['int64', int], ['uint64', uint], ['double', double], ['string', string], ['bytes', bytes], ['timestamp', timestamp], ['duration', duration]];
  const numeric: [string, CelT][] = [['int64', int], ['uint64', uint], ['double', double]];
  for (const [op, id] of ops) {
    for (const [n, t] of same) out.push(fn(op, `${id}_${n}`, [t, t], bool));
    for (const [a, ta] of numeric) for (const [b, tb] of numeric) if (a !== b) out.push(fn(op, `${id}_${a}_${b}`, [ta, tb], bool));
  }
  return out;
}

function arithmetic(): Overload[] {
  const nums: [string, CelT][] = [['int64', int], ['uint64', uint], ['double', double]];
  const out: Overload[] = [];
  for (const [op, id] of [['_+_', 'add'], ['_-_', 'subtract'], ['_*_', 'multiply'], ['_/_', 'divide']] as const) {
    for (const [n, t] of nums) out.push(fn(op, `${id}_${n}`, [t, t], t));
  }
  out.push(fn('_%_', 'modulo_int64', [int, int], int), fn('_%_', 'modulo_uint64', [uint, uint], uint));
  out.push(
    fn('_+_', 'add_string', [string, string], string),
    fn('_+_', 'add_bytes', [bytes, bytes], bytes),
    fn('_+_', 'add_list', [T.list(A), T.list(A)], T.list(A)),
    fn('_+_', 'add_timestamp_duration', [timestamp, duration], timestamp),
    fn('_+_', 'add_duration_timestamp', [duration, timestamp], timestamp),
    fn('_+_', 'add_duration_duration', [duration, duration], duration),
    fn('_-_', 'subtract_timestamp_timestamp', [timestamp, timestamp], duration),
    fn('_-_', 'subtract_timestamp_duration', [timestamp, duration], timestamp),
    fn('_-_', 'subtract_duration_duration', [duration, duration], duration),
    fn('-_', 'negate_int64', [int], int),
    fn('-_', 'negate_double', [double], double),
  );
  return out;
}

function conversions(): Overload[] {
  const out: Overload[] = [];
  const to = (name: string, result: CelT, from: [string, CelT][]) => from.forEach(([n, t]) => out.push(fn(name, `${name}_${n}`, [t], result)));
  to('int', int, [['int64', int], ['uint64', uint], ['double', double], ['string', string], ['timestamp', timestamp]]);
  to('uint', uint, [['int64', int], ['uint64', uint], ['double', double], ['string', string]]);
  to('double', double, [['int64', int], ['uint64', uint], ['double', double], ['string', string]]);
  to('string', string, [['int64', int], ['uint64', uint], ['double', double], ['bool', bool], ['string', string], ['timestamp', timestamp], ['duration', duration]]);
  to('bytes', bytes, [['bytes', bytes]]);
  // cel-go names these two, and prices them by length
  out.push(fn('string', 'bytes_to_string', [bytes], string), fn('bytes', 'string_to_bytes', [string], bytes));
  to('bool', bool, [['bool', bool], ['string', string]]);
  to('timestamp', timestamp, [['string', string], ['timestamp', timestamp], ['int64', int]]);
  to('duration', duration, [['string', string], ['duration', duration]]);
  out.push(fn('dyn', 'to_dyn', [A], dyn), fn('type', 'type', [A], T.type(A)));
  return out;
}

function timeAccessors(): Overload[] {
  const out: Overload[] = [];
  const ts = ['getFullYear', 'getMonth', 'getDayOfYear', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'];
  for (const m of ts) {
    out.push(method(m, `timestamp_to_${m}`, [timestamp], int), method(m, `timestamp_to_${m}_with_tz`, [timestamp, string], int));
  }
  for (const m of ['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds']) out.push(method(m, `duration_to_${m}`, [duration], int));
  return out;
}

function collections(): Overload[] {
  return [
    fn('_==_', 'equals', [A, A], bool),
    fn('_!=_', 'not_equals', [A, A], bool),
    fn('!_', 'logical_not', [bool], bool),
    fn('_&&_', 'logical_and', [bool, bool], bool),
    fn('_||_', 'logical_or', [bool, bool], bool),
    fn('_?_:_', 'conditional', [bool, A, A], A),
    fn('@not_strictly_false', 'not_strictly_false', [bool], bool),
    fn('_[_]', 'index_list', [T.list(A), int], A),
    fn('_[_]', 'index_map', [T.map(K, V), K], V),
    fn('@in', 'in_list', [A, T.list(A)], bool),
    fn('@in', 'in_map', [A, T.map(A, B)], bool),
    fn('size', 'size_string', [string], int),
    fn('size', 'size_bytes', [bytes], int),
    fn('size', 'size_list', [T.list(A)], int),
    fn('size', 'size_map', [T.map(A, B)], int),
    method('size', 'string_size', [string], int),
    method('size', 'bytes_size', [bytes], int),
    method('size', 'list_size', [T.list(A)], int),
    method('size', 'map_size', [T.map(A, B)], int),
  ];
}

function stringFunctions(): Overload[] {
  const listOfString = T.list(string);
  return [
    method('contains', 'contains_string', [string, string], bool),
    method('startsWith', 'starts_with_string', [string, string], bool),
    method('endsWith', 'ends_with_string', [string, string], bool),
    method('matches', 'matches_string', [string, string], bool),
    fn('matches', 'matches', [string, string], bool),
    // cel-go ext strings, version 2
    method('charAt', 'string_char_at_int', [string, int], string),
    method('indexOf', 'string_index_of_string', [string, string], int),
    method('indexOf', 'string_index_of_string_int', [string, string, int], int),
    method('lastIndexOf', 'string_last_index_of_string', [string, string], int),
    method('lastIndexOf', 'string_last_index_of_string_int', [string, string, int], int),
    method('lowerAscii', 'string_lower_ascii', [string], string),
    method('upperAscii', 'string_upper_ascii', [string], string),
    method('replace', 'string_replace_string_string', [string, string, string], string),
    method('replace', 'string_replace_string_string_int', [string, string, string, int], string),
    method('split', 'string_split_string', [string, string], listOfString),
    method('split', 'string_split_string_int', [string, string, int], listOfString),
    method('substring', 'string_substring_int', [string, int], string),
    method('substring', 'string_substring_int_int', [string, int, int], string),
    method('trim', 'string_trim', [string], string),
    method('join', 'list_join', [listOfString], string),
    method('join', 'list_join_string', [listOfString, string], string),
    method('format', 'string_format', [string, T.list(dyn)], string),
    fn('strings.quote', 'strings_quote', [string], string),
  ];
}

export const standardDeclarations: readonly Overload[] = [
  ...collections(),
  ...comparisons(),
  ...arithmetic(),
  ...conversions(),
  ...timeAccessors(),
  ...stringFunctions(),
];

/** Type names usable as values (`type(x) == int`). */
export const typeIdentifiers: ReadonlyMap<string, CelT> = new Map<string, CelT>([
  ...named.filter(([n]) => n !== 'timestamp' && n !== 'duration').map(([n, t]): [string, CelT] => [n, T.type(t)]),
  ['google.protobuf.Timestamp', T.type(timestamp)],
  ['google.protobuf.Duration', T.type(duration)],
  ['null_type', T.type(T.null)],
  ['list', T.type(T.list(dyn))],
  ['map', T.type(T.map(dyn, dyn))],
  ['type', T.type(T.type(dyn))],
]);
