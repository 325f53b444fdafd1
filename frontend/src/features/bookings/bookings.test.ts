import { describe, expect, it } from "vitest";
import { bookingPriceRows, headcount, paymentRows } from "./bookings";

const details = {
  prices: [{ label: "Hour", duration: 1, rate: "50.00", total: "50.00", priceDuration: "Hour" }],
  servicesAndAddOns: [{ title: "Coffee", price: "8.00" }],
  subtotal: "58.00",
  discount: "0.00",
  discountPercent: "0.00",
  convenienceFee: "1.74",
  processingFeePercent: "3.00",
  tax: "7.77",
  taxPercent: "13.00",
  extensionsTotal: "15.49",
  total: "67.51",
};

describe("booking detail figures", () => {
  it("lists every line that makes the total after an extension, and the lines add up to it", () => {
    const rows = bookingPriceRows({ paymentDetails: details, totalAmount: "83.00" } as never);
    expect(rows.map((row) => row.label)).toEqual(["1 Hour × $50.00", "Coffee", "Convenience fee (3%)", "Tax (13%)", "Extensions", "Total"]);
    const sum = rows.filter((row) => row.key !== "total").reduce((total, row) => total + Number(row.amount.replace(/[$,]/g, "")), 0);
    expect(sum.toFixed(2)).toBe("83.00");
    expect(rows.at(-1)).toMatchObject({ label: "Total", amount: "$83.00" });
  });

  it("shows the payment as paid, extended, refunded and what is left", () => {
    expect(paymentRows({ totalAmount: "67.51" }).map((row) => `${row.label} ${row.amount}`)).toEqual(["Booking $67.51"]);
    expect(paymentRows({ totalAmount: "67.51", extendedAmount: "15.49", refundedAmount: "20.00" }).map((row) => `${row.label} ${row.amount}`)).toEqual([
      "Booking $67.51",
      "Extensions $15.49",
      "Refunded -$20.00",
      "Net paid $63.00",
    ]);
  });

  it("counts guests only for event spaces; desks and offices by seats", () => {
    expect(headcount({ guests: 1, seats: 2, listingId: { propertyType: "officeSpace" } })).toEqual({ label: "Seats", value: 2 });
    expect(headcount({ guests: 12, seats: 1, listingId: { propertyType: "eventSpace" } })).toEqual({ label: "Guests", value: 12 });
  });
});
