import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PasswordStrength, passwordScore } from "./PasswordStrength";

describe("passwordScore", () => {
  it.each([
    ["", 0],
    ["abc", 0],
    ["abcdef", 1], // length over 5
    ["abcdefgh", 2], // and over 7
    ["abcdefg1", 3], // and a digit
    ["abcdef1!", 4], // and a symbol
    ["Abcdef1!", 5], // and both cases
    ["Ab1!", 3], // digit, symbol, cases, but short
    ["aaaaaa_", 2],
  ])("scores %j as %i", (password, score) => {
    expect(passwordScore(password)).toBe(score);
  });

  it("counts every listed symbol", () => {
    for (const symbol of "!#@$%^&*)(+=._-") expect(passwordScore(symbol)).toBe(1);
    expect(passwordScore("~")).toBe(0);
  });
});

describe("PasswordStrength", () => {
  it("is hidden at score 0", () => {
    const { container } = render(<PasswordStrength password="abc" />);
    expect(container).toBeEmptyDOMElement();
  });

  it.each([
    ["abcdef", "Poor", "rgb(220, 38, 38)"],
    ["abcdefgh", "Weak", "rgb(234, 179, 8)"],
    ["abcdefg1", "Normal", "rgb(249, 115, 22)"],
    ["abcdef1!", "Good", "rgb(34, 197, 94)"],
    ["Abcdef1!", "Strong", "rgb(21, 128, 61)"],
  ])("shows %j as %s in its colour on an 85 x 8 bar", (password, label, color) => {
    const { container } = render(<PasswordStrength password={password} />);
    expect(screen.getByText(label)).toBeInTheDocument();
    const bar = screen.getByRole("meter", { name: "Password strength" });
    expect(bar.style.width).toBe("85px");
    expect(bar.style.height).toBe("8px");
    const fill = container.querySelector<HTMLElement>(".strength__fill")!;
    expect(fill.style.background).toBe(color);
  });
});
