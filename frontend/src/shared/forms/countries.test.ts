import { describe, expect, it } from "vitest";
import { countryNames, countryOptions } from "./countries";

describe("countries", () => {
  it("lists the countries by English name, sorted, without unions or reserved codes", () => {
    const names = countryNames().map((option) => option.value);
    expect(names).toEqual(expect.arrayContaining(["Canada", "India", "United States", "Germany", "Japan"]));
    expect(names).not.toContain("European Union");
    expect(names).not.toContain("Unknown Region");
    expect(names.length).toBeGreaterThan(240);
    expect([...names].sort((a, b) => a.localeCompare(b, "en"))).toEqual(names);
  });

  it("keeps a stored value that is not a known name (stored values stay compatible)", () => {
    expect(countryOptions("USA")[0]).toEqual({ value: "USA", label: "USA" });
    expect(countryOptions("Canada")).toEqual(countryNames());
  });
});
