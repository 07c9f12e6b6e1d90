import type { Clock } from '../../src/shared/clock.js';

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  #now: number;

  constructor(iso: string) {
    this.#now = Date.parse(iso);
  }

  now(): Date {
    return new Date(this.#now);
  }

  advance(milliseconds: number): void {
    this.#now += milliseconds;
  }

  set(iso: string): void {
    this.#now = Date.parse(iso);
  }
}
