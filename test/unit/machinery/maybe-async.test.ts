import { runMaybeAsync } from '../../../src/machinery/maybe-async';

/** Adds what it is given, waiting where a step hands it a promise; a failed step is caught and counted. */
function* sum(steps: (number | Promise<number>)[]): Generator<unknown, number, number> {
  let total = 0;
  for (const s of steps) {
    try {
      total += yield s;
    } catch {
      total += 1000;
    }
  }
  return total;
}

describe('runMaybeAsync', () => {
  it('answers synchronously when no step waits', () => {
    expect(runMaybeAsync(sum([1, 2, 3]))).toBe(6);
  });

  it('goes on asynchronously from the first step that waits, with every later step', async () => {
    const r = runMaybeAsync(sum([1, Promise.resolve(2), 3, Promise.resolve(4)]));
    expect(r).toBeInstanceOf(Promise);
    expect(await r).toBe(10);
  });

  it("hands a rejection to the generator's catch, as an await would", async () => {
    expect(await runMaybeAsync(sum([Promise.reject(new Error('no')), 1]))).toBe(1001);
    expect(await runMaybeAsync(sum([1, Promise.resolve(1), Promise.reject(new Error('no'))]))).toBe(1002);
  });

  it('throws what the generator throws: at once before any wait, as a rejection after one', async () => {
    function* fails(wait: boolean): Generator<unknown, never, unknown> {
      if (wait) yield Promise.resolve();
      throw new Error('broken');
    }
    expect(() => runMaybeAsync(fails(false))).toThrow('broken');
    await expect(runMaybeAsync(fails(true))).rejects.toThrow('broken');
  });

  it('lets an uncaught rejection reject the result', async () => {
    function* plain(): Generator<unknown, number, number> {
      return (yield Promise.reject(new Error('gone'))) + 1;
    }
    await expect(runMaybeAsync(plain())).rejects.toThrow('gone');
  });
});
