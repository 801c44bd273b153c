import { run } from './run-expression';

describe('lists library (upstream library/lists.go)', () => {
  it.each([
    ['[1, 2, 3].isSorted()', true],
    ['[1, 3, 2].isSorted()', false],
    ["['a', 'b', 'b'].isSorted()", true],
    ['[].isSorted()', true],
    ['[1, 2, 3].sum()', 6],
    ['[1.5, 2.5].sum()', 4],
    ['[duration("1s"), duration("2s")].sum() == duration("3s")', true],
    ['dyn([]).sum() == 0', true],
    ['[3, 1, 2].min()', 1],
    ['[3, 1, 2].max()', 3],
    ["['b', 'a'].min()", 'a'],
    ['[1, 2, 3, 2].indexOf(2)', 1],
    ['[1, 2, 3, 2].lastIndexOf(2)', 3],
    ['[1, 2].indexOf(5)', -1],
    ["'hello'.indexOf('l')", 2],
    ['x.items.all(i, i.name.size() < 64)', true],
  ])('%s', (expr, value) => {
    expect(run(expr, { items: [{ name: 'a' }] })).toEqual({ value });
  });

  it.each([
    ['[].min()', 'min called on empty list'],
    ['[].max()', 'max called on empty list'],
  ])('%s fails: %s', (expr, error) => {
    expect(run(expr)).toEqual({ error });
  });

  it('rejects list functions on non-lists at compile time', () => {
    expect(run('1.isSorted()')).toEqual({ compileError: expect.stringContaining("found no matching overload for 'isSorted' applied to 'int.()'") });
  });

  it('types an empty typed sum by its overload', () => {
    expect(run('x.sum() == 0.0', [])).toEqual({ value: true });
  });
});

describe('sets library (cel-go ext/sets.go)', () => {
  it.each([
    ['sets.contains([1, 2, 3], [1, 2])', true],
    ['sets.contains([1, 2], [3])', false],
    ['sets.contains([1], [])', true],
    ['sets.contains([1], [1.0])', false],
    ['sets.contains(x, [1.0])', true],
    ['sets.equivalent([1, 2, 2], [2, 1])', true],
    ['sets.equivalent([1, 2], [1, 3])', false],
    ['sets.intersects([1, 2], [2, 3])', true],
    ['sets.intersects([1], [])', false],
  ])('%s', (expr, value) => {
    if (expr === 'sets.contains([1], [1.0])') {
      // list(int) and list(double) do not unify: a compile error, as upstream
      expect(run(expr)).toEqual({ compileError: expect.stringContaining("found no matching overload for 'sets.contains'") });
      return;
    }
    expect(run(expr, [1])).toEqual({ value });
  });
});
