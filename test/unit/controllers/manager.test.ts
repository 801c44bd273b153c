/** --controllers as upstream reads it, and the manager starting and stopping what it selects. */
import { ControllerManager, ControllerSelectionError, isControllerEnabled, normalizeSelection, type ControllerDescriptor } from '../../../src/controllers/manager';

function fake(name: string, aliases: string[] = [], nothingToDo = false) {
  const events: string[] = [];
  const d: ControllerDescriptor = {
    name,
    aliases,
    start: () => {
      if (nothingToDo) return undefined;
      events.push('start');
      return { stop: () => void events.push('stop') };
    },
  };
  return { d, events };
}

describe('--controllers', () => {
  const known = [fake('garbage-collector-controller', ['garbagecollector']).d, fake('certificatesigningrequest-signing-controller', ['csrsigning']).d];

  test("upstream's IsControllerEnabled: explicit entries win, * turns on the rest", () => {
    expect(isControllerEnabled('a', ['*'])).toBe(true);
    expect(isControllerEnabled('a', ['*', '-a'])).toBe(false);
    expect(isControllerEnabled('a', ['-a', '*'])).toBe(false);
    expect(isControllerEnabled('a', ['a', '-a'])).toBe(true);
    expect(isControllerEnabled('a', ['b'])).toBe(false);
    expect(isControllerEnabled('a', [])).toBe(false);
    expect(isControllerEnabled('a', ['*'], new Set(['a']))).toBe(false);
    expect(isControllerEnabled('a', ['*', 'a'], new Set(['a']))).toBe(true);
  });

  test('aliases name their controller; unknown names are refused with upstream message', () => {
    expect(normalizeSelection(['*', '-csrsigning', 'garbagecollector'], known)).toEqual(['*', '-certificatesigningrequest-signing-controller', 'garbage-collector-controller']);
    expect(() => normalizeSelection(['*', '-nope'], known)).toThrow(new ControllerSelectionError('"nope" is not in the list of known controllers'));
  });
});

describe('ControllerManager without leader election', () => {
  test('starts the selected controllers, skips those with nothing to do, stops all on shutdown', async () => {
    const a = fake('a');
    const b = fake('b', ['bee']);
    const idle = fake('idle', [], true);
    const logs: string[] = [];
    const m = new ControllerManager([a.d, b.d, idle.d], ['*', '-bee'], (_level, msg, extra) => logs.push(`${msg} ${JSON.stringify(extra)}`));
    m.start();
    expect(m.active()).toEqual(['a']);
    expect(a.events).toEqual(['start']);
    expect(b.events).toEqual([]);
    expect(logs).toEqual(expect.arrayContaining([expect.stringContaining('controller is disabled by --controllers {"controller":"b"}'), expect.stringContaining('skipping controller')]));
    await m.shutdown();
    expect(a.events).toEqual(['start', 'stop']);
    expect(m.active()).toEqual([]);
  });

  test('a controller whose start throws does not keep the others from running', () => {
    const ok = fake('ok');
    const broken: ControllerDescriptor = {
      name: 'broken',
      start: () => {
        throw new Error('boom');
      },
    };
    const m = new ControllerManager([broken, ok.d], ['*'], () => undefined);
    m.start();
    expect(m.active()).toEqual(['ok']);
  });
});
