import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { OtpInput } from "./OtpInput";

let latest = "";
function Harness() {
  const [value, setValue] = useState("");
  latest = value;
  return <OtpInput value={value} onChange={setValue} />;
}

const boxes = () => screen.getAllByRole("textbox") as HTMLInputElement[];

describe("OtpInput", () => {
  it("has five boxes", () => {
    render(<Harness />);
    expect(boxes()).toHaveLength(5);
    expect(boxes()[2]).toHaveAccessibleName("Digit 3 of 5");
  });

  it("takes digits only and moves to the next box", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[0]);
    await user.keyboard("1a2");
    expect(latest).toBe("12");
    expect(document.activeElement).toBe(boxes()[2]);
    await user.keyboard("345");
    expect(latest).toBe("12345");
    expect(boxes().map((box) => box.value)).toEqual(["1", "2", "3", "4", "5"]);
  });

  it("moves with the arrow keys", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[2]);
    await user.keyboard("{ArrowLeft}");
    expect(document.activeElement).toBe(boxes()[1]);
    await user.keyboard("{ArrowRight}{ArrowRight}");
    expect(document.activeElement).toBe(boxes()[3]);
  });

  it("goes back on backspace in an empty box", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[0]);
    await user.keyboard("12");
    expect(document.activeElement).toBe(boxes()[2]);
    await user.keyboard("{Backspace}");
    expect(document.activeElement).toBe(boxes()[1]);
    await user.keyboard("{Backspace}");
    expect(latest).toBe("1");
  });

  it("fills every box from a pasted code", () => {
    render(<Harness />);
    fireEvent.paste(boxes()[0], { clipboardData: { getData: () => " 54-321 " } });
    expect(latest).toBe("54321");
    expect(boxes().map((box) => box.value)).toEqual(["5", "4", "3", "2", "1"]);
  });
});
