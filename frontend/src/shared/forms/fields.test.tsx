import { zodResolver } from "@hookform/resolvers/zod";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useForm } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { CheckboxField, DateField, SelectField, TimeSlotField } from "./fields";
import { TextField } from "./TextField";

const schema = z.object({
  role: z.string().min(1, "Role is required"),
  terms: z.boolean().refine(Boolean, "You must agree to the terms."),
  day: z.string().min(1, "Choose a day"),
  start: z.string().min(1, "Choose a time"),
  seats: z.string(),
  discount: z.string(),
  price: z.string(),
});
type Values = z.infer<typeof schema>;

function Form({ onSubmit }: { onSubmit: (values: Values) => void }) {
  const { control, handleSubmit } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { role: "", terms: false, day: "", start: "", seats: "", discount: "", price: "" },
  });
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <SelectField control={control} name="role" label="Role" required placeholder="Choose" options={[{ value: "renter", label: "I want to book" }, { value: "host", label: "I want to host" }]} />
      <CheckboxField control={control} name="terms" label="I agree to the Terms & Conditions" />
      <DateField control={control} name="day" label="Date" />
      <TimeSlotField control={control} name="start" label="Start time" from={9 * 60} to={11 * 60} />
      <TextField control={control} name="seats" label="Seats" kind="number" />
      <TextField control={control} name="discount" label="Discount" kind="percentage" />
      <TextField control={control} name="price" label="Price" kind="price" />
      <button type="submit">Save</button>
    </form>
  );
}

describe("form fields", () => {
  it("shows each field's message under it after a submit, and nothing before", async () => {
    render(<Form onSubmit={() => {}} />);
    expect(screen.queryByText("Role is required")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Role is required")).toBeVisible();
    expect(screen.getByText("You must agree to the terms.")).toBeVisible();
    expect(screen.getByLabelText(/Role/)).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText(/Role/)).toHaveAccessibleDescription("Role is required");
  });

  it("offers 30-minute slots in 12-hour format between the hours given", () => {
    render(<Form onSubmit={() => {}} />);
    const options = Array.from((screen.getByLabelText("Start time") as HTMLSelectElement).options).map((option) => option.text);
    expect(options).toEqual(["Select a time", "09:00 AM", "09:30 AM", "10:00 AM", "10:30 AM", "11:00 AM"]);
  });

  it("ignores negative numbers, keeps percentages within 0 to 100, and shows a price in dollars", () => {
    render(<Form onSubmit={() => {}} />);
    const seats = screen.getByLabelText("Seats") as HTMLInputElement;
    fireEvent.change(seats, { target: { value: "-3" } });
    expect(seats.value).toBe("");
    fireEvent.change(seats, { target: { value: "4" } });
    expect(seats.value).toBe("4");
    const discount = screen.getByLabelText("Discount") as HTMLInputElement;
    fireEvent.change(discount, { target: { value: "101" } });
    expect(discount.value).toBe("");
    fireEvent.change(discount, { target: { value: "100" } });
    expect(discount.value).toBe("100");
    fireEvent.change(screen.getByLabelText("Price"), { target: { value: "1234.5" } });
    expect(screen.getByText("$1,234.50")).toBeVisible();
  });

  it("submits the chosen values", async () => {
    const submit = vi.fn();
    render(<Form onSubmit={submit} />);
    fireEvent.change(screen.getByLabelText(/Role/), { target: { value: "host" } });
    fireEvent.click(screen.getByLabelText(/I agree/));
    fireEvent.change(screen.getByLabelText("Date"), { target: { value: "2026-03-05" } });
    fireEvent.change(screen.getByLabelText("Start time"), { target: { value: "09:30 AM" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(submit).toHaveBeenCalled());
    expect(submit.mock.calls[0][0]).toMatchObject({ role: "host", terms: true, day: "2026-03-05", start: "09:30 AM" });
  });
});
