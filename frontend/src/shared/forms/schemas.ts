/** Form schemas with the spec's exact messages (section 5). Empty strings count as absent. */
import { z } from "zod";
import { OTP_LENGTH } from "../constants";

export const MESSAGES = {
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email",
  passwordRequired: "Password is required",
  loginPasswordMin: "Password must be at least 8 characters",
  passwordMin: "Password must be at least 8 characters long",
  passwordUpper: "Password Should Contain Atleast One Uppercase Letter.",
  passwordNumber: "Password Should Contain Atleast One Number.",
  passwordLower: "Password Should Contain Atleast One Lowercase Letter.",
  passwordSpecial: "Password Should Contain Atleast One Special Character (!#@$%^&*)(+=._-).",
  passwordCharacters: "Password can contain only letters, digits and common punctuation.",
  confirmRequired: "Confirm Password is required",
  passwordsMustMatch: "Passwords must match",
  passwordsDoNotMatch: "Passwords does not match",
  roleRequired: "Role is required",
  termsRequired: "You must agree to the terms.",
  otpInvalid: "Please enter the 5-digit code",
  nameRequired: "Name is required",
  nameNoDigits: "No digits allowed.",
  nameMax: "Name must be at most 25 characters long",
  messageRequired: "Message is required",
  phoneRequired: "Phone number is required",
  phoneMax: "Phone must be at most 10 characters long",
  contactEmailInvalid: "Invalid email address",
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ALLOWED_PASSWORD = /^[A-Za-z0-9!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]+$/;
const SYMBOLS = /[!#@$%^&*)(+=._-]/;

/** A required text: missing and "" both give `required` (empty strings count as absent). */
const requiredText = (required: string) => z.string({ error: required }).trim().min(1, required);

const email = (invalid: string = MESSAGES.emailInvalid) =>
  requiredText(MESSAGES.emailRequired).regex(EMAIL_PATTERN, invalid).max(254, invalid);

const registerPassword = z
  .string({ error: MESSAGES.passwordRequired })
  .min(1, MESSAGES.passwordRequired)
  .min(8, MESSAGES.passwordMin)
  .regex(/[A-Z]/, MESSAGES.passwordUpper)
  .regex(/\d/, MESSAGES.passwordNumber)
  .regex(/[a-z]/, MESSAGES.passwordLower)
  .regex(SYMBOLS, MESSAGES.passwordSpecial)
  .regex(ALLOWED_PASSWORD, MESSAGES.passwordCharacters)
  .max(128, "Password must be at most 128 characters long");

const confirmPassword = requiredText(MESSAGES.confirmRequired);

export const loginSchema = z.object({
  email: email(),
  password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).min(8, MESSAGES.loginPasswordMin),
  rememberMe: z.boolean(),
});

export const registerSchema = z
  .object({
    email: email(),
    password: registerPassword,
    confirmPassword,
    role: z.enum(["renter", "host"], { error: MESSAGES.roleRequired }),
    termsAndCondition: z.boolean({ error: MESSAGES.termsRequired }).refine((value) => value, MESSAGES.termsRequired),
  })
  .refine((values) => values.password === values.confirmPassword, {
    path: ["confirmPassword"],
    message: MESSAGES.passwordsMustMatch,
  });

export const forgotPasswordSchema = z.object({ email: email() });

export const resetPasswordSchema = z
  .object({ password: registerPassword, confirmPassword })
  .refine((values) => values.password === values.confirmPassword, {
    path: ["confirmPassword"],
    message: MESSAGES.passwordsDoNotMatch,
  });

export const otpSchema = z.object({ otp: z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), MESSAGES.otpInvalid) });

export const contactSchema = z.object({
  name: requiredText(MESSAGES.nameRequired).regex(/^[A-Za-z][A-Za-z ]*$/, MESSAGES.nameNoDigits).max(25, MESSAGES.nameMax),
  phoneNumber: requiredText(MESSAGES.phoneRequired).max(10, MESSAGES.phoneMax),
  email: email(MESSAGES.contactEmailInvalid),
  message: requiredText(MESSAGES.messageRequired),
});

export type LoginValues = z.input<typeof loginSchema>;
export type RegisterValues = z.input<typeof registerSchema>;
export type ForgotPasswordValues = z.input<typeof forgotPasswordSchema>;
export type ResetPasswordValues = z.input<typeof resetPasswordSchema>;
export type ContactValues = z.input<typeof contactSchema>;

/** The first message of a field, as the form shows it. */
export function firstErrors(schema: z.ZodType, values: unknown): Record<string, string> {
  const result = schema.safeParse(values);
  const errors: Record<string, string> = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path.join(".");
      if (!(key in errors)) errors[key] = issue.message;
    }
  }
  return errors;
}
