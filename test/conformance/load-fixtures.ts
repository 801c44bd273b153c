/** Every kind's conformance fixture, from test/conformance/fixtures/*.fixture.ts. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KindFixture } from './fixture';

export function loadFixtures(): KindFixture[] {
  const dir = join(__dirname, 'fixtures');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.fixture.ts'))
    .sort()
    .map((f) => {
      // eslint-disable-next-line @typescript-eslint/no-var-requires
      const mod = require(join(dir, f));
      return (mod.fixture ?? mod.default ?? Object.values(mod)[0]) as KindFixture;
    });
}
