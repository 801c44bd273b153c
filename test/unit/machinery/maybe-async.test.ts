import { andThen } from '../../../src/machinery/maybe-async';

describe('andThen', () => {
  it('goes on at once, without a promise, when the value is at hand', () => {
    expect(andThen(2, (v) => v * 3)).toBe(6);
  });

  it('waits for a promise, and lets a rejection through untouched', async () => {
    const later = andThen(Promise.resolve(2), (v) => v * 3);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(6);
    let called = false;
    await expect(andThen(Promise.reject(new Error('down')), () => (called = true))).rejects.toThrow('down');
    expect(called).toBe(false);
  });
});
