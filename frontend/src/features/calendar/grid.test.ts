import { describe, expect, it } from "vitest";
import { bookingsOn, monthWeeks, step, viewRange, viewTitle } from "./grid";

describe("calendar dates", () => {
  it("lays a month out in weeks from Sunday to Saturday", () => {
    const weeks = monthWeeks("2030-03-14");
    expect(weeks[0][0]).toBe("2030-02-24");
    expect(weeks.at(-1)?.at(-1)).toBe("2030-04-06");
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(weeks.flat()).toContain("2030-03-31");
  });

  it("gives each view its range and steps", () => {
    expect(viewRange("week", "2030-03-14")).toEqual({ from: "2030-03-10", to: "2030-03-16" });
    expect(viewRange("day", "2030-03-14")).toEqual({ from: "2030-03-14", to: "2030-03-14" });
    expect(step("month", "2030-01-31", 1)).toBe("2030-02-01");
    expect(step("month", "2030-01-15", -1)).toBe("2029-12-01");
    expect(step("week", "2030-03-14", -1)).toBe("2030-03-07");
    expect(step("day", "2030-12-31", 1)).toBe("2031-01-01");
  });

  it("names each view", () => {
    expect(viewTitle("month", "2030-03-14")).toBe("March 2030");
    expect(viewTitle("week", "2030-03-14")).toBe("10 Mar – 16 Mar 2030");
    expect(viewTitle("day", "2030-03-14")).toBe("Thursday 14 March 2030");
  });

  it("finds the bookings covering a day", () => {
    const bookings = [
      { _id: "a", checkInDate: "13-03-2030", checkOutDate: "15-03-2030" },
      { _id: "b", checkInDate: "16-03-2030", checkOutDate: "16-03-2030" },
    ];
    expect(bookingsOn(bookings, "2030-03-14").map((booking) => booking._id)).toEqual(["a"]);
    expect(bookingsOn(bookings, "2030-03-16").map((booking) => booking._id)).toEqual(["b"]);
    expect(bookingsOn(bookings, "2030-03-12")).toEqual([]);
  });
});
