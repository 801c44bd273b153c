/** Randomness, through a port so tests control it: object uids and generated names. */
export interface RandomPort {
  /** A random (version 4) UUID. */
  uuid(): string;
  /** A uniformly random integer in [0, below). */
  int(below: number): number;
}
