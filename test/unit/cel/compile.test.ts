import { compileRule } from '../../../src/machinery/cel/compile';
import { CelEnvironment } from '../../../src/machinery/cel/environment';
import { evaluate } from '../../../src/machinery/cel/evaluate';
import { T, typeName } from '../../../src/machinery/cel/types';

const item = T.object('Item', new Map([['name', T.string]]));
const self = T.object('Self', new Map<string, ReturnType<typeof T.list>>([
  ['replicas', T.int],
  ['maxReplicas', T.int],
  ['name', T.string],
  ['labels', T.map(T.string, T.string)],
  ['items', T.list(item)],
  ['ratio', T.double],
]));
const env = new CelEnvironment({ self: { type: self }, oldSelf: { type: self } });

function compileOk(src: string) {
  const r = compileRule(src, env);
  if (r.error !== undefined) throw new Error(r.error);
  return r.program;
}

describe('compileRule errors (cel-go texts)', () => {
  it.each([
    ['self.nope > 0', "compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 0\n | ....^"],
    ['foo == 1', "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^"],
    ["self.replicas + 'a' > 0", "compilation failed: ERROR: <input>:1:15: found no matching overload for '_+_' applied to '(int, string)'\n | self.replicas + 'a' > 0\n | ..............^"],
    ['self.replicas == 1.0', "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, double)'\n | self.replicas == 1.0\n | ..............^"],
    ["[1, 'a'].size() > 0", "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() > 0\n | ....^"],
    ['self.items.all(i, i.name)', "compilation failed: ERROR: <input>:1:15: found no matching overload for '_&&_' applied to '(bool, string)'\n | self.items.all(i, i.name)\n | ..............^"],
    ['self.replicas.size()', "compilation failed: ERROR: <input>:1:19: found no matching overload for 'size' applied to 'int.()'\n | self.replicas.size()\n | ..................^"],
  ])('%s', (src, message) => {
    expect(compileRule(src, env).error).toBe(message);
  });

  it('reports syntax errors with position', () => {
    expect(compileRule('self.replicas >', env).error).toMatch(/^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
  });

  it('requires a bool when asked, as CRD rules do', () => {
    expect(compileRule('self.replicas', env, { resultType: T.bool }).error).toBe('cel expression must evaluate to a bool');
    expect(compileRule('self.replicas > 1', env, { resultType: T.bool }).error).toBeUndefined();
  });
});

describe('types of valid expressions', () => {
  it.each([
    ['self.replicas <= self.maxReplicas', 'bool'],
    ['self.replicas < 1.5', 'bool'],
    ['self.items.map(i, i.name)', 'list(string)'],
    ['self.items.filter(i, i.name.startsWith("a"))', 'list(Item)'],
    ['self.labels["a"]', 'string'],
    ['self.labels.a', 'string'],
    ['has(self.name) ? self.name : "x"', 'string'],
    ['self.items.exists_one(i, i.name == "a")', 'bool'],
    ['type(self.replicas) == int', 'bool'],
    ['dyn(self.replicas)', 'dyn'],
    ['[1, 2].map(x, double(x) * 2.0)', 'list(double)'],
    ['[1, 2].map(x, x * 2.0)', 'error'],
    ['{"a": 1}', 'map(string, int)'],
    ['self.name.split(",")', 'list(string)'],
    ['"a".indexOf("b") + size([])', 'int'],
  ])('%s : %s', (src, type) => {
    const r = compileRule(src, env);
    expect(r.program ? typeName(r.program.type) : 'error').toBe(type);
  });

  it('marks rules using oldSelf', () => {
    expect(compileOk('self.replicas >= oldSelf.replicas').references.has('oldSelf')).toBe(true);
    expect(compileOk('self.replicas >= 1').references.has('oldSelf')).toBe(false);
  });
});

describe('evaluate', () => {
  const value = { replicas: 3n, maxReplicas: 5n, name: 'web', labels: { a: 'b' }, items: [{ name: 'x' }], ratio: 0.5 };

  it.each([
    ['self.replicas <= self.maxReplicas', true],
    ['self.items.all(i, i.name.size() < 64)', true],
    ['self.labels.a + self.name', 'bweb'],
    ['self.replicas * 2', 6n],
  ])('%s', (src, expected) => {
    expect(evaluate(compileOk(src), { self: value })).toEqual(expect.objectContaining({ value: expected }));
  });

  it('returns runtime errors in upstream words', () => {
    expect(evaluate(compileOk('self.labels.missing == "x"'), { self: value }).error).toBe('no such key: missing');
    expect(evaluate(compileOk('self.replicas / 0 == 1'), { self: value }).error).toBe('division by zero');
  });

  it('stops at the per-call cost limit with upstream error', () => {
    const program = compileOk('[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, a + b + c > 0)))');
    const within = evaluate(program, {}, { costLimit: 1_000_000 });
    expect(within.value).toBe(true);
    const over = evaluate(program, {}, { costLimit: within.cost - 1 });
    expect(over.error).toBe('operation cancelled: actual cost limit exceeded');
    expect(over.cost).toBeLessThan(within.cost + 100);
  });
});
