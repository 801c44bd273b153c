/** Time, through a port so tests control it. */
export interface ClockPort {
  now(): Date;
}
