import { describe, expect, it } from "vitest";
import { clockLabel, counterText, formatDate, formatDateTime, formatTime, money, percent, shortName, timeSlots } from ".";

describe("formatters", () => {
  it("writes money as $ with two decimals", () => {
    expect(money("1234.5")).toBe("$1,234.50");
    expect(money(0)).toBe("$0.00");
    expect(money("-12")).toBe("-$12.00");
    expect(money("not a number")).toBe("$0.00");
    expect(money(null)).toBe("$0.00");
  });

  it("writes dates as dd-MM-yyyy in the zone it is given", () => {
    // 03:30 UTC on 5 March is still 4 March in New York and already 5 March in Kolkata.
    expect(formatDate("2026-03-05T03:30:00Z")).toBe("04-03-2026");
    expect(formatDate("2026-03-05T03:30:00Z", "Asia/Kolkata")).toBe("05-03-2026");
    expect(formatDate("2026-03-05")).toBe("05-03-2026");
    expect(formatDate("05-03-2026")).toBe("05-03-2026");
    expect(formatDate(null)).toBe("");
  });

  it("writes times in 12-hour format in the zone it is given", () => {
    expect(formatTime("2026-07-01T13:30:00Z", "America/Toronto")).toBe("09:30 AM");
    expect(formatTime("2026-07-01T13:30:00Z", "Europe/London")).toBe("02:30 PM");
    expect(formatTime("00:00")).toBe("12:00 AM");
    expect(formatTime("12:30")).toBe("12:30 PM");
    expect(formatTime("09:30 am")).toBe("09:30 AM");
    expect(formatDateTime("2026-07-01T13:30:00Z", "America/Vancouver")).toBe("01-07-2026 06:30 AM");
  });

  it("offers 30-minute slots in 12-hour format", () => {
    const slots = timeSlots();
    expect(slots).toHaveLength(48);
    expect(slots.slice(0, 3).map((slot) => slot.label)).toEqual(["12:00 AM", "12:30 AM", "01:00 AM"]);
    expect(slots.at(-1)?.label).toBe("11:30 PM");
    expect(timeSlots(9 * 60, 10 * 60).map((slot) => slot.label)).toEqual(["09:00 AM", "09:30 AM", "10:00 AM"]);
    expect(clockLabel(13 * 60)).toBe("01:00 PM");
  });

  it("counts up to 9 then 9+, shortens names to 6 characters and two dots", () => {
    expect([0, 1, 9, 10].map(counterText)).toEqual(["", "1", "9", "9+"]);
    expect(shortName("Alexandra")).toBe("Alexan..");
    expect(shortName("Ana")).toBe("Ana");
    expect(percent("12.345")).toBe("12.35%");
  });
});
