import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { readListState, rememberTab, useListState, writeListState } from "./useListState";

const defaults = { tab: "all", search: "", page: 1 };

describe("list state in the URL", () => {
  beforeEach(() => window.history.replaceState(null, "", "/booking"));

  it("reads the tab, search and page from the query string, typed like the defaults", () => {
    expect(readListState("?tab=pending&search=loft&page=3", defaults)).toEqual({ tab: "pending", search: "loft", page: 3 });
    expect(readListState("?page=-2&page=x", defaults).page).toBe(1);
    expect(readListState("", defaults)).toEqual(defaults);
  });

  it("writes only what differs from the defaults and keeps other parameters", () => {
    expect(writeListState("?type=booking", { tab: "pending", search: "", page: 1 }, defaults)).toBe("?type=booking&tab=pending");
    expect(writeListState("?tab=pending", defaults, defaults)).toBe("");
  });

  it("falls back from a tab the user may not see, and uses the remembered tab when the URL names none", () => {
    expect(readListState("?tab=expired", defaults, { allowedTabs: ["all", "pending"] }).tab).toBe("all");
    rememberTab("booking-bookings", "pending");
    expect(readListState("", defaults, { tabPrefix: "booking-bookings", allowedTabs: ["all", "pending"] }).tab).toBe("pending");
    expect(readListState("?tab=all", defaults, { tabPrefix: "booking-bookings" }).tab).toBe("all");
  });

  it("updates the URL, goes back to page 1 on a new filter, and follows back and forward", () => {
    const { result } = renderHook(() => useListState(defaults, { tabPrefix: "booking-bookings" }));
    act(() => result.current[1]({ page: 4 }));
    expect(window.location.search).toBe("?page=4");
    act(() => result.current[1]({ tab: "pending" }));
    expect(window.location.search).toBe("?tab=pending");
    expect(result.current[0]).toEqual({ tab: "pending", search: "", page: 1 });
    expect(window.localStorage.getItem("listTab:booking-bookings")).toBe("pending");

    act(() => {
      window.history.pushState(null, "", "/booking?page=2&search=hall");
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
    expect(result.current[0]).toEqual({ tab: "pending", search: "hall", page: 2 });
  });
});
