import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useForm } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { formatPhone, PhoneField, parsePhoneInput, PHONE_COUNTRIES } from "./PhoneField";

let values: { phone: string } = { phone: "" };
function Harness() {
  const { control, watch } = useForm<{ phone: string }>({ defaultValues: { phone: "" } });
  values = { phone: watch("phone") };
  return <PhoneField control={control} name="phone" label="Phone" />;
}

describe("formatPhone", () => {
  it("formats a Canadian number as the placeholder shows", () => {
    expect(formatPhone("2261234567")).toBe("(226) 123-4567");
    expect(formatPhone("226")).toBe("(226");
    expect(formatPhone("2261")).toBe("(226) 1");
  });

  it("offers exactly the six countries", () => {
    expect(Object.values(PHONE_COUNTRIES).map((country) => country.name)).toEqual([
      "Canada",
      "United States",
      "India",
      "Australia",
      "New Zealand",
      "United Kingdom",
    ]);
  });

  it("switches country on a typed dial code and drops the code", () => {
    expect(parsePhoneInput("+44 7911 123456", "ca")).toEqual({ country: "gb", digits: "7911123456" });
    expect(parsePhoneInput("+1 226 123 4567", "ca")).toEqual({ country: "ca", digits: "2261234567" });
    expect(parsePhoneInput("226-123", "ca")).toEqual({ country: "ca", digits: "226123" });
  });
});

describe("PhoneField", () => {
  it("shows the placeholder, formats while typing, and keeps digits only in the value", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByLabelText("Phone") as HTMLInputElement;
    expect(input).toHaveAttribute("placeholder", "(226) 123-4567");
    expect(screen.queryByRole("combobox")).toBeNull(); // no country dropdown
    await user.type(input, "226a1234567");
    expect(input.value).toBe("(226) 123-4567");
    expect(values.phone).toBe("2261234567");
  });

  it("keeps at most 15 digits", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByLabelText("Phone"), "12345678901234567890");
    expect(values.phone).toBe("123456789012345");
  });
});
