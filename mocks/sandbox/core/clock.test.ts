/** The sandbox clock: advance moves it forward only, set moves it anywhere, reset puts it back at the start. */
import { describe, expect, it } from "vitest";
import { clockOf, movableClock } from "./clock.js";

describe("movableClock", () => {
  it("advance, set and reset move the offset over the starting clock", () => {
    const clock = movableClock(clockOf("2026-11-27T09:00:00.000Z"));
    const iso = () => new Date(clock.now()).toISOString();
    clock.advance(3_600_000);
    expect(iso()).toBe("2026-11-27T10:00:00.000Z");
    clock.set("2026-01-01T00:00:00Z");
    expect(iso()).toBe("2026-01-01T00:00:00.000Z");
    clock.reset();
    expect(iso()).toBe("2026-11-27T09:00:00.000Z");
  });

  it("follows a running starting clock, and refuses a negative advance or an unreadable instant", () => {
    let wall = 1_000;
    const clock = movableClock(() => wall);
    clock.set(5_000);
    wall += 10;
    expect(clock.now()).toBe(5_010);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.set("later")).toThrow(/now must be a Date/);
    expect(clock.now()).toBe(5_010);
  });
});
