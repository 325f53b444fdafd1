import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { acceptCount, withConsistentTimes } from "./components";
import { clearDraft, DRAFT_KEY, draftFor, mergeDraft, readDraft, updateDraft } from "./draft";
import { breakdownRows, type BookingListing, detailsStep, type PaymentDetails, priceLineText, requestBody, stepUrl } from "./quote";
import { money, percent } from "../../shared/format";
import {
  datesBetween,
  displayDate,
  endSlots,
  futureStartSlots,
  labelMinutes,
  nowInDisplayZone,
  nowInZone,
  openingFor,
  slotLabel,
  startSlots,
  zoneNameOn,
} from "./slots";
import { DetailsForm } from "./components";

const OFFICE_HOURS = {
  monday: { open: "08:00", close: "20:00" },
  tuesday: { open: "08:00", close: "20:00" },
  saturday: { open: "09:00", close: "12:00" },
  sunday: null,
};
// 2031-06-02 is a Monday, 2031-06-07 a Saturday, 2031-06-08 a Sunday.
const MONDAY = "2031-06-02";

describe("time slots", () => {
  it("labels every 30 minutes in the 12-hour format", () => {
    expect(slotLabel(0)).toBe("12:00 AM");
    expect(slotLabel(30)).toBe("12:30 AM");
    expect(slotLabel(9 * 60 + 30)).toBe("09:30 AM");
    expect(slotLabel(12 * 60)).toBe("12:00 PM");
    expect(slotLabel(13 * 60 + 30)).toBe("01:30 PM");
    expect(slotLabel(23 * 60 + 30)).toBe("11:30 PM");
    expect(labelMinutes("01:30 PM")).toBe(13 * 60 + 30);
    expect(labelMinutes("12:00 AM")).toBe(0);
    expect(labelMinutes("12:30 PM")).toBe(12 * 60 + 30);
    expect(labelMinutes("13:00 PM")).toBeNull();
    expect(labelMinutes("soon")).toBeNull();
  });

  it("offers start times from opening to the last half hour before closing", () => {
    const starts = startSlots(OFFICE_HOURS, MONDAY).map((s) => s.label);
    expect(starts[0]).toBe("08:00 AM");
    expect(starts.at(-1)).toBe("07:30 PM");
    expect(starts).toHaveLength(24);
    expect(starts).toContain("12:00 PM");
    expect(new Set(starts.map((s) => labelMinutes(s)! % 30))).toEqual(new Set([0]));
  });

  it("offers end times after opening up to closing, after the start on a one-day booking", () => {
    const ends = endSlots(OFFICE_HOURS, MONDAY).map((s) => s.label);
    expect(ends[0]).toBe("08:30 AM");
    expect(ends.at(-1)).toBe("08:00 PM");
    expect(endSlots(OFFICE_HOURS, MONDAY, 10 * 60).map((s) => s.label)[0]).toBe("10:30 AM");
    expect(endSlots(OFFICE_HOURS, "2031-06-07").map((s) => s.label)).toEqual([
      "09:30 AM",
      "10:00 AM",
      "10:30 AM",
      "11:00 AM",
      "11:30 AM",
      "12:00 PM",
    ]);
  });

  it("closes on a day set to null and opens around the clock on a missing day or an empty table", () => {
    expect(openingFor(OFFICE_HOURS, "2031-06-08")).toBeNull();
    expect(startSlots(OFFICE_HOURS, "2031-06-08")).toEqual([]);
    expect(openingFor(OFFICE_HOURS, "2031-06-04")).toEqual([0, 1440]); // Wednesday is not in the table
    expect(startSlots({}, MONDAY)).toHaveLength(48);
    expect(startSlots(null, MONDAY)[0].label).toBe("12:00 AM");
    expect(endSlots(null, MONDAY).at(-1)!.label).toBe("11:30 PM");
    expect(startSlots(OFFICE_HOURS, "not a date")).toEqual([]);
  });

  it("does not offer past times today, nor days gone by (New York time)", () => {
    const now = new Date("2031-06-02T14:10:00Z"); // 10:10 AM in New York (EDT)
    expect(nowInDisplayZone(now)).toEqual({ date: MONDAY, minutes: 10 * 60 + 10 });
    expect(futureStartSlots(OFFICE_HOURS, MONDAY, now)[0].label).toBe("10:30 AM");
    expect(futureStartSlots(OFFICE_HOURS, "2031-06-01", now)).toEqual([]);
    expect(futureStartSlots(OFFICE_HOURS, "2031-06-03", now)[0].label).toBe("08:00 AM");
  });

  it("reads today and the past slots on the space's own clock (Mumbai)", () => {
    const now = new Date("2031-06-02T04:40:00Z"); // 10:10 AM in Mumbai, 12:40 AM in New York
    expect(nowInZone("Asia/Kolkata", now)).toEqual({ date: MONDAY, minutes: 10 * 60 + 10 });
    expect(futureStartSlots(OFFICE_HOURS, MONDAY, now, "Asia/Kolkata")[0].label).toBe("10:30 AM");
    // In New York it is still early on Monday: every Monday slot is ahead.
    expect(futureStartSlots(OFFICE_HOURS, MONDAY, now, "America/New_York")[0].label).toBe("08:00 AM");
    // Sydney is already on Tuesday: Monday has gone by there.
    expect(futureStartSlots(OFFICE_HOURS, MONDAY, new Date("2031-06-02T15:00:00Z"), "Australia/Sydney")).toEqual([]);
  });

  it("names the zone of the chosen day, across a daylight-saving change", () => {
    const london = [
      { from: "2031-01-01", name: "GMT" },
      { from: "2031-03-30", name: "BST" },
      { from: "2031-10-26", name: "GMT" },
    ];
    expect(zoneNameOn(london, "2031-03-29")).toBe("GMT");
    expect(zoneNameOn(london, "2031-03-30")).toBe("BST");
    expect(zoneNameOn(london, "2031-12-01")).toBe("GMT");
    expect(zoneNameOn([{ from: "2031-06-01", name: "IST" }], "2031-05-31")).toBe("IST");
    expect(zoneNameOn(undefined, MONDAY)).toBe("");
  });

  it("shows dates as dd-MM-yyyy and lists the days of a stay", () => {
    expect(displayDate("2031-06-02")).toBe("02-06-2031");
    expect(datesBetween("2031-06-30", "2031-07-02")).toEqual(["2031-06-30", "2031-07-01", "2031-07-02"]);
    expect(datesBetween("2031-07-02", "2031-06-30")).toEqual([]);
  });
});

describe("booking draft", () => {
  it("merges field by field and removes a field set to undefined", () => {
    const draft = mergeDraft({ listingId: "a", checkInDate: MONDAY, startTime: "09:00 AM" }, { endTime: "11:00 AM" });
    expect(draft).toEqual({ listingId: "a", checkInDate: MONDAY, startTime: "09:00 AM", endTime: "11:00 AM" });
    expect(mergeDraft(draft, { startTime: undefined })).toEqual({ listingId: "a", checkInDate: MONDAY, endTime: "11:00 AM" });
  });

  it("starts again for another listing", () => {
    expect(mergeDraft({ listingId: "a", guests: 4 }, { listingId: "b", checkInDate: MONDAY })).toEqual({
      listingId: "b",
      checkInDate: MONDAY,
    });
  });

  it("is kept in local storage across steps and cleared after use", () => {
    updateDraft({ listingId: "a", slug: "loft", checkInDate: MONDAY });
    updateDraft({ servicesAndAddOns: ["x"] });
    expect(readDraft()).toMatchObject({ listingId: "a", slug: "loft", checkInDate: MONDAY, servicesAndAddOns: ["x"] });
    expect(draftFor("a").servicesAndAddOns).toEqual(["x"]);
    expect(draftFor("other")).toEqual({});
    clearDraft();
    expect(window.localStorage.getItem(DRAFT_KEY)).toBeNull();
    expect(readDraft()).toEqual({});
  });

  it("survives a malformed stored value", () => {
    window.localStorage.setItem(DRAFT_KEY, "{oops");
    expect(readDraft()).toEqual({});
    window.localStorage.setItem(DRAFT_KEY, "[1,2]");
    expect(readDraft()).toEqual({});
  });
});

const DETAILS: PaymentDetails = {
  prices: [
    { priceDuration: "daily", label: "Day", duration: 2, rate: "30.00", total: "60.00" },
    { priceDuration: "hourly", label: "Hour", duration: 1, rate: "25.00", total: "25.00" },
  ],
  totalAmount: "85.00",
  totalDays: 2,
  totalHours: "1.00",
  servicesAndAddOns: [{ title: "Catering", price: "15.00" }],
  servicesTotal: "15.00",
  selectedPrice: null,
  subtotal: "100.00",
  discountPercent: "10.00",
  discount: "10.00",
  discountedSubtotal: "90.00",
  processingFeePercent: "3.00",
  convenienceFee: "2.70",
  taxPercent: "13.00",
  tax: "11.70",
  price: "94.40",
  extensionsTotal: "1200.00",
  total: "1294.40",
  commissionPercent: "10.00",
  commission: "9.00",
};

describe("quote formatting", () => {
  it("shows money as $ with two decimals", () => {
    expect(money("1294.4")).toBe("$1,294.40");
    expect(money(0)).toBe("$0.00");
    expect(money("nonsense")).toBe("$0.00");
    expect(money(undefined)).toBe("$0.00");
    expect(percent("12.50")).toBe("12.5%");
    expect(percent("3.00")).toBe("3%");
  });

  it("lists prices, services, discount, convenience fee, tax and total in order", () => {
    expect(priceLineText(DETAILS.prices[0])).toBe("2 Days × $30.00");
    expect(priceLineText(DETAILS.prices[1])).toBe("1 Hour × $25.00");
    expect(breakdownRows(DETAILS).map((row) => [row.label, row.amount])).toEqual([
      ["2 Days × $30.00", "$60.00"],
      ["1 Hour × $25.00", "$25.00"],
      ["Catering", "$15.00"],
      ["Discount (10%)", "-$10.00"],
      ["Convenience fee (3%)", "$2.70"],
      ["Tax (13%)", "$11.70"],
      ["Total", "$1,294.40"],
    ]);
  });

  it("leaves out a discount of zero", () => {
    const rows = breakdownRows({ ...DETAILS, discount: "0.00", discountPercent: "0.00" });
    expect(rows.map((row) => row.key)).not.toContain("discount");
  });
});

const EVENT: BookingListing = {
  listingId: "l1",
  slug: "hall",
  title: "Hall",
  propertyType: "eventSpace",
  spaceOffering: [],
  servicesAndAddOns: [],
  guest: 50,
  openingHours: OFFICE_HOURS,
};
const OFFICE: BookingListing = {
  ...EVENT,
  propertyType: "officeSpace",
  spaceOffering: [
    { _id: "o1", kind: "hotDesk", title: "Hot Desk", periods: ["daily"], prices: { daily: "30.00" }, seats: 8, minimumPeriod: 1 },
    { _id: "o2", kind: "meetingSpace", title: "Meeting Space", periods: ["hourly"], prices: { hourly: "25.00" }, seats: 1, minimumPeriod: 1 },
  ],
};

describe("steps and requests", () => {
  it("starts office spaces at request-booking-details and event spaces at event-booking-details", () => {
    expect(detailsStep("officeSpace")).toBe("request-booking-details");
    expect(detailsStep("eventSpace")).toBe("event-booking-details");
    expect(stepUrl("review-and-pay", "a b", { bookingId: "x" })).toBe("/review-and-pay?listing=a+b&bookingId=x");
  });

  it("asks for a quote only when the draft is complete", () => {
    expect(requestBody(EVENT, { checkInDate: MONDAY }, false)).toBeNull();
    expect(requestBody(OFFICE, { checkInDate: MONDAY, startTime: "09:00 AM", endTime: "10:00 AM" }, false)).toBeNull();
    expect(requestBody(EVENT, { checkInDate: MONDAY, startTime: "09:00 AM", endTime: "01:00 PM", guests: 3, servicesAndAddOns: ["s"] }, true)).toEqual({
      listingId: "l1",
      checkInDate: MONDAY,
      checkOutDate: MONDAY,
      startTime: "09:00 AM",
      endTime: "01:00 PM",
      guests: 3,
      servicesAndAddOns: ["s"],
    });
    expect(requestBody(OFFICE, { spaceOffering: "o1", checkInDate: MONDAY, startTime: "09:00 AM", endTime: "10:00 AM" }, false)).toMatchObject({
      spaceOffering: "o1",
      seats: 1,
    });
  });

  it("drops times no longer offered when the date changes", () => {
    const now = new Date("2031-05-01T12:00:00Z");
    const draft = withConsistentTimes(EVENT, { checkInDate: MONDAY, startTime: "07:00 PM", endTime: "08:00 PM" }, now);
    expect(draft).toMatchObject({ checkOutDate: MONDAY, startTime: "07:00 PM", endTime: "08:00 PM" });
    const saturday = withConsistentTimes(EVENT, { ...draft, checkInDate: "2031-06-07", checkOutDate: "2031-06-07" }, now);
    expect(saturday.startTime).toBeUndefined();
    expect(saturday.endTime).toBeUndefined();
    const backwards = withConsistentTimes(EVENT, { checkInDate: "2031-06-03", checkOutDate: MONDAY }, now);
    expect(backwards.checkOutDate).toBe("2031-06-03");
  });

  it("ignores negative guest counts", () => {
    expect(acceptCount("-2")).toBeNull();
    expect(acceptCount("3")).toBe("3");
    expect(acceptCount("")).toBe("");
  });

  it("shows the offering select for office spaces and 12-hour slots within opening hours", async () => {
    const changes: object[] = [];
    render(
      <DetailsForm
        listing={OFFICE}
        draft={{ checkInDate: "2031-06-07", checkOutDate: "2031-06-07" }}
        errors={{}}
        availability={{ occupied: new Set(), pending: new Set(), loaded: true }}
        onChange={(change) => changes.push(change)}
      />,
    );
    const offering = screen.getByLabelText(/Space offering/) as HTMLSelectElement;
    expect([...offering.options].map((o) => o.text)).toEqual(["Choose an offering", "Hot Desk (from $30.00 daily)", "Meeting Space (from $25.00 hourly)"]);
    const start = screen.getByLabelText(/Start time/) as HTMLSelectElement;
    expect([...start.options].map((o) => o.text)).toEqual(["Start time", "09:00 AM", "09:30 AM", "10:00 AM", "10:30 AM", "11:00 AM", "11:30 AM"]);
    await userEvent.selectOptions(start, "10:00 AM");
    expect(changes).toEqual([{ startTime: "10:00 AM" }]);
  });

  it("shows times on the space's clock with its zone named, and sends the plain time", async () => {
    const changes: object[] = [];
    const mumbai = { ...EVENT, timeZone: "Asia/Kolkata", timeZoneNames: [{ from: "2031-01-01", name: "IST" }] };
    render(
      <DetailsForm
        listing={mumbai}
        draft={{ checkInDate: MONDAY, checkOutDate: MONDAY, startTime: "10:00 AM" }}
        errors={{}}
        availability={{ occupied: new Set(), pending: new Set(), loaded: true }}
        onChange={(change) => changes.push(change)}
      />,
    );
    const start = screen.getByLabelText(/Start time/) as HTMLSelectElement;
    expect([...start.options].find((o) => o.value === "10:00 AM")?.text).toBe("10:00 AM IST");
    const end = screen.getByLabelText(/End time/) as HTMLSelectElement;
    expect([...end.options].find((o) => o.value === "04:00 PM")?.text).toBe("04:00 PM IST");
    expect(screen.getByTestId("booking-zone")).toHaveTextContent("Times are local to the space (Asia/Kolkata).");
    await userEvent.selectOptions(end, "04:00 PM");
    expect(changes).toEqual([{ endTime: "04:00 PM" }]);
  });

  it("says when a chosen day is booked or closed", () => {
    render(
      <DetailsForm
        listing={{ ...EVENT, blockedDates: ["2031-06-03"] }}
        draft={{ checkInDate: MONDAY, checkOutDate: "2031-06-03" }}
        errors={{}}
        availability={{ occupied: new Set([MONDAY]), pending: new Set(), loaded: true }}
        onChange={() => undefined}
      />,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Not available on 02-06-2031, 03-06-2031.");
  });
});
