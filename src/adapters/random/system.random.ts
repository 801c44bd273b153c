import { randomInt, randomUUID } from 'node:crypto';
import type { RandomPort } from '../../ports/random.port';

/** The operating system's cryptographic randomness. */
export const systemRandom: RandomPort = { uuid: () => randomUUID(), int: (below) => randomInt(below) };
