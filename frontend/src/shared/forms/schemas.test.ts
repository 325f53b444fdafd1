import { describe, expect, it } from "vitest";
import {
  contactSchema,
  firstErrors,
  forgotPasswordSchema,
  loginSchema,
  otpSchema,
  registerSchema,
  resetPasswordSchema,
} from "./schemas";

const validRegister = {
  email: "ana@example.com",
  password: "Secret1!",
  confirmPassword: "Secret1!",
  role: "renter",
  termsAndCondition: true,
};

describe("login", () => {
  it("uses the spec's messages", () => {
    expect(firstErrors(loginSchema, { email: "", password: "", rememberMe: false })).toEqual({
      email: "Email is required",
      password: "Password is required",
    });
    expect(firstErrors(loginSchema, { email: "nope", password: "short", rememberMe: false })).toEqual({
      email: "Please enter a valid email",
      password: "Password must be at least 8 characters",
    });
    expect(firstErrors(loginSchema, { email: "a@b.co", password: "whatever1", rememberMe: true })).toEqual({});
  });
});

describe("register", () => {
  it("accepts a valid form", () => {
    expect(firstErrors(registerSchema, validRegister)).toEqual({});
  });

  it.each([
    ["", "Password is required"],
    ["Ab1!", "Password must be at least 8 characters long"],
    ["secret1!", "Password Should Contain Atleast One Uppercase Letter."],
    ["Secrets!", "Password Should Contain Atleast One Number."],
    ["SECRET1!", "Password Should Contain Atleast One Lowercase Letter."],
    ["Secret12", "Password Should Contain Atleast One Special Character (!#@$%^&*)(+=._-)."],
    ["Secret1! é", "Password can contain only letters, digits and common punctuation."],
  ])("password %j: %s", (password, message) => {
    expect(firstErrors(registerSchema, { ...validRegister, password, confirmPassword: password }).password).toBe(message);
  });

  it("checks confirmation, role and terms", () => {
    expect(firstErrors(registerSchema, { ...validRegister, confirmPassword: "" }).confirmPassword).toBe(
      "Confirm Password is required",
    );
    expect(firstErrors(registerSchema, { ...validRegister, confirmPassword: "Secret1?" }).confirmPassword).toBe(
      "Passwords must match",
    );
    expect(firstErrors(registerSchema, { ...validRegister, role: "" }).role).toBe("Role is required");
    expect(firstErrors(registerSchema, { ...validRegister, role: "admin" }).role).toBe("Role is required");
    expect(firstErrors(registerSchema, { ...validRegister, termsAndCondition: false }).termsAndCondition).toBe(
      "You must agree to the terms.",
    );
  });
});

describe("forgot and reset password, code", () => {
  it("uses the spec's messages", () => {
    expect(firstErrors(forgotPasswordSchema, { email: "" }).email).toBe("Email is required");
    expect(firstErrors(resetPasswordSchema, { password: "Secret1!", confirmPassword: "Secret2!" }).confirmPassword).toBe(
      "Passwords does not match",
    );
    expect(firstErrors(resetPasswordSchema, { password: "Secret1!", confirmPassword: "" }).confirmPassword).toBe(
      "Confirm Password is required",
    );
    expect(firstErrors(otpSchema, { otp: "12a45" }).otp).toBe("Please enter the 5-digit code");
    expect(firstErrors(otpSchema, { otp: "12345" })).toEqual({});
  });
});

describe("contact", () => {
  const valid = { name: "Ana Lima", phoneNumber: "2261234567", email: "ana@example.com", message: "Hello" };
  it("uses the spec's messages", () => {
    expect(firstErrors(contactSchema, valid)).toEqual({});
    expect(firstErrors(contactSchema, { name: "", phoneNumber: "", email: "", message: "" })).toEqual({
      name: "Name is required",
      phoneNumber: "Phone number is required",
      email: "Email is required",
      message: "Message is required",
    });
    expect(firstErrors(contactSchema, { ...valid, name: "Ana 2" }).name).toBe("No digits allowed.");
    expect(firstErrors(contactSchema, { ...valid, name: "A".repeat(26) }).name).toBe(
      "Name must be at most 25 characters long",
    );
    expect(firstErrors(contactSchema, { ...valid, phoneNumber: "12345678901" }).phoneNumber).toBe(
      "Phone must be at most 10 characters long",
    );
    expect(firstErrors(contactSchema, { ...valid, email: "x@" }).email).toBe("Invalid email address");
  });
});
