import { describe, expect, it } from "vitest";
import { pageWindows } from "./ui/pagination";
import { CONSTANTS } from "./constants";
import golden from "./policies.golden.json";

// The same cases the server's tests read (apps/core, apps/listings, apps/payments test_policies.py).

describe("golden policy cases", () => {
  it.each(golden.pageWindows)("page window for page $current of $total", ({ current, total, pages }) => {
    expect(pageWindows(current, total)).toEqual(pages.map((page) => (page === null ? "..." : page)));
  });

  it("offers exactly the periods the server accepts", () => {
    const accepted = golden.periods.filter((item) => item.period && !("error" in item)).map((item) => item.period);
    expect(CONSTANTS.periods).toEqual(accepted);
  });

  it("shows the refund sentences the server writes from its schedule", () => {
    for (const [policy, text] of Object.entries(golden.refundTexts)) {
      expect(CONSTANTS.refundSchedule[policy as keyof typeof CONSTANTS.refundSchedule].text).toBe(text);
    }
  });

  it("names the premium grace the server applies", () => {
    expect(CONSTANTS.premium.graceDays).toBe(golden.premiumGraceDays);
    expect(CONSTANTS.premium.graceText).toContain(`${golden.premiumGraceDays} days`);
  });
});
