import { zodResolver } from "@hookform/resolvers/zod";
import { useAuthHeadingId } from "./heading";
import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { ApiError, api, call } from "../../shared/api/client";
import { OtpInput } from "../../shared/forms/OtpInput";
import { PasswordField } from "../../shared/forms/PasswordField";
import { PasswordStrength } from "../../shared/forms/PasswordStrength";
import { SubmitButton } from "../../shared/forms/SubmitButton";
import { TextField } from "../../shared/forms/TextField";
import { pathAfterLogin } from "./authModal";
import { deleteCookie, getCookie, setCookie } from "../../shared/browser/cookies";
import { navigation } from "../../shared/browser/navigation";
import {
  type ForgotPasswordValues,
  forgotPasswordSchema,
  type LoginValues,
  loginSchema,
  MESSAGES,
  type RegisterValues,
  type ResetPasswordValues,
  registerSchema,
  resetPasswordSchema,
} from "../../shared/forms/schemas";
import { rememberSignedIn } from "../../shared/api/session";
import { flashToast, toast } from "../../shared/ui/toast";

export const REMEMBER_EMAIL_COOKIE = "rememberMeEmail";
export const REMEMBER_PASSWORD_COOKIE = "rememberMePassword";
export const REMEMBER_DAYS = 7;
export const RESEND_WAIT_SECONDS = 120;

function BackArrow({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="auth-back" onClick={onClick} aria-label="Back">
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M20 11H7.8l5.6-5.6L12 4l-8 8 8 8 1.4-1.4L7.8 13H20z" />
      </svg>
    </button>
  );
}

// --- Login -------------------------------------------------------------------

/** Remember me: e-mail and password in cookies for 7 days, scoped to the current path. */
export function rememberLogin(email: string, password: string, remember: boolean, path = window.location.pathname) {
  if (remember) {
    setCookie(REMEMBER_EMAIL_COOKIE, email, { days: REMEMBER_DAYS, path, sameSite: "Strict" });
    setCookie(REMEMBER_PASSWORD_COOKIE, password, { days: REMEMBER_DAYS, path, sameSite: "Strict" });
  } else {
    deleteCookie(REMEMBER_EMAIL_COOKIE, path);
    deleteCookie(REMEMBER_PASSWORD_COOKIE, path);
  }
}

export function LoginStep({
  notice,
  onRegister,
  onForgot,
  onUnverified,
}: {
  notice: string;
  onRegister: () => void;
  onForgot: () => void;
  onUnverified: (email: string, userID: string) => void;
}) {
  const rememberedEmail = getCookie(REMEMBER_EMAIL_COOKIE);
  const { control, handleSubmit, register, formState } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: {
      email: rememberedEmail ?? "",
      password: getCookie(REMEMBER_PASSWORD_COOKIE) ?? "",
      rememberMe: rememberedEmail !== null,
    },
  });
  const submit = handleSubmit(async (values) => {
    try {
      const data = await call(api.POST("/api/user/login", { body: { email: values.email, password: values.password } }), {
        ownAuthErrors: true,
        silent: true,
      });
      rememberLogin(values.email, values.password, values.rememberMe);
      rememberSignedIn(data.data.user);
      const next = pathAfterLogin(window.location.pathname);
      if (next) navigation.assign(next);
      else navigation.reload();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const userID = error.data.userID;
      if (error.status === 403 && typeof userID === "string") {
        toast.info(error.message);
        onUnverified(values.email, userID);
      } else {
        toast.error(error.message);
      }
    }
  });
  const rememberField = register("rememberMe");
  return (
    <form onSubmit={submit} noValidate className="auth-form">
      <h2 id={useAuthHeadingId()} className="auth-heading">
        Welcome back <span className="auth-heading__sub">Please log in</span>
      </h2>
      {notice && (
        <p className="form-alert form-alert--success" role="status">
          {notice}
        </p>
      )}
      <TextField control={control} name="email" kind="email" label="Email" required autoComplete="email" placeholder="Enter your email" />
      <PasswordField control={control} name="password" label="Password" required autoComplete="current-password" placeholder="Enter your password" />
      <div className="auth-row">
        <label className="form-check">
          <input
            type="checkbox"
            {...rememberField}
            onChange={(event) => {
              if (!event.currentTarget.checked) rememberLogin("", "", false);
              return rememberField.onChange(event);
            }}
          />{" "}
          Remember me
        </label>
        <button type="button" className="link-button link-button--brand" onClick={onForgot}>
          Forgot password?
        </button>
      </div>
      <SubmitButton loading={formState.isSubmitting}>Login</SubmitButton>
      <p className="auth-switch">
        Don't have an account?{" "}
        <button type="button" className="link-button link-button--brand" onClick={onRegister}>
          Register here
        </button>
      </p>
    </form>
  );
}

// --- Register ----------------------------------------------------------------

export function RegisterStep({
  defaultRole,
  onLogin,
  onRegistered,
}: {
  defaultRole: "renter" | "host";
  onLogin: () => void;
  onRegistered: (email: string, userID: string) => void;
}) {
  const { control, handleSubmit, register, formState, watch } = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    defaultValues: { email: "", password: "", confirmPassword: "", role: defaultRole, termsAndCondition: false },
  });
  const password = watch("password") ?? "";
  const submit = handleSubmit(async (values) => {
    try {
      // confirmPassword and termsAndCondition stay in the browser.
      const data = await call(
        api.POST("/api/user/register", { body: { email: values.email, password: values.password, role: values.role } }),
      );
      toast.success(data.message);
      onRegistered(values.email, data.data.user._id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  });
  const roleError = formState.errors.role?.message;
  const termsError = formState.errors.termsAndCondition?.message;
  return (
    <form onSubmit={submit} noValidate className="auth-form">
      <h2 id={useAuthHeadingId()} className="auth-heading">
        Create an account
      </h2>
      <TextField control={control} name="email" kind="email" label="Email" required autoComplete="email" placeholder="Enter your email" />
      <PasswordField control={control} name="password" label="Password" required autoComplete="new-password" placeholder="Enter your password">
        <PasswordStrength password={password} />
      </PasswordField>
      <PasswordField control={control} name="confirmPassword" label="Confirm Password" required autoComplete="new-password" placeholder="Confirm your password" />
      <div className={`form-field${roleError ? " form-field--invalid" : ""}`}>
        <label className="form-field__label" htmlFor="register-role">
          Role<span className="form-field__required" aria-hidden="true"> *</span>
        </label>
        <select id="register-role" className="form-field__input" {...register("role")} aria-required="true" aria-invalid={roleError ? true : undefined}>
          <option value="renter">I want to book</option>
          <option value="host">I want to host</option>
        </select>
        {roleError && <p className="form-field__error" role="alert">{roleError}</p>}
      </div>
      <div className={`form-field${termsError ? " form-field--invalid" : ""}`}>
        <label className="form-check">
          <input type="checkbox" {...register("termsAndCondition")} aria-invalid={termsError ? true : undefined} /> I agree to the{" "}
          <a href="/terms-and-conditions" target="_blank" rel="noopener noreferrer">
            Terms &amp; Conditions
          </a>
        </label>
        {termsError && <p className="form-field__error" role="alert">{termsError}</p>}
      </div>
      <SubmitButton loading={formState.isSubmitting}>Register</SubmitButton>
      <p className="auth-switch">
        Already have an account?{" "}
        <button type="button" className="link-button link-button--brand" onClick={onLogin}>
          Login here
        </button>
      </p>
    </form>
  );
}

// --- Forgot password ------------------------------------------------------------

export function ForgotPasswordStep({ onBack, onSent }: { onBack: () => void; onSent: (email: string, userID: string) => void }) {
  const { control, handleSubmit, formState } = useForm<ForgotPasswordValues>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: "" },
  });
  const submit = handleSubmit(async (values) => {
    try {
      const data = await call(api.POST("/api/user/forgot-password", { body: { email: values.email } }));
      toast.success(data.message);
      onSent(values.email, data.data.userID);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  });
  return (
    <form onSubmit={submit} noValidate className="auth-form">
      <div className="auth-title-row">
        <BackArrow onClick={onBack} />
        <h2 id={useAuthHeadingId()} className="auth-heading">
          Provide Email
        </h2>
      </div>
      <TextField control={control} name="email" kind="email" label="Email" required autoComplete="email" placeholder="Enter your email" />
      <SubmitButton loading={formState.isSubmitting}>Submit</SubmitButton>
    </form>
  );
}

// --- One-time code ----------------------------------------------------------------

export function formatCountdown(seconds: number): string {
  const safe = Math.max(0, Math.floor(seconds));
  return `${Math.floor(safe / 60)}:${String(safe % 60).padStart(2, "0")}`;
}

/** Seconds until the resend link is active again; `restart(n)` starts a new wait. */
export function useCountdown(start: number) {
  const [endsAt, setEndsAt] = useState(() => Date.now() + start * 1000);
  const [now, setNow] = useState(() => Date.now());
  const remaining = Math.max(0, Math.ceil((endsAt - now) / 1000));
  const running = remaining > 0;
  useEffect(() => {
    if (!running) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running, endsAt]);
  return {
    remaining,
    restart: (seconds: number = start) => {
      setNow(Date.now());
      setEndsAt(Date.now() + seconds * 1000);
    },
  };
}

export function OtpStep({
  purpose,
  email,
  userID,
  onUserID,
  onBack,
  onVerified,
}: {
  purpose: "verify" | "forgot";
  email: string;
  userID: string;
  onUserID: (userID: string) => void;
  onBack: () => void;
  onVerified: (token: string) => void;
}) {
  const { control, handleSubmit, formState } = useForm<{ otp: string }>({ defaultValues: { otp: "" } });
  const countdown = useCountdown(RESEND_WAIT_SECONDS);
  const [resending, setResending] = useState(false);

  const submit = handleSubmit(async ({ otp }) => {
    if (!/^\d{5}$/.test(otp)) {
      toast.error(MESSAGES.otpInvalid);
      return;
    }
    try {
      const data = await call(api.POST("/api/user/verify-otp", { body: { userID, otp } }));
      if (purpose === "verify") {
        // The server signed the account in with the code (a session and a token, as a login
        // does): go on as after a login, without asking for the password again.
        rememberSignedIn(data.data.user);
        flashToast("User account verified successfully", "success");
        const next = pathAfterLogin(window.location.pathname);
        if (next) navigation.assign(next);
        else navigation.reload();
      } else {
        onVerified(data.data.token ?? "");
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  });

  const resend = async () => {
    setResending(true);
    try {
      const data = await call(api.POST("/api/user/send/otp", { body: { email } }), { silent: true });
      toast.success(data.message);
      onUserID(data.data.userID);
      countdown.restart();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast.error(error.message);
      const wait = Number(error.data.retryAfter);
      if (error.status === 429 && wait > 0) countdown.restart(wait);
    } finally {
      setResending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="auth-form">
      <div className="auth-title-row">
        <BackArrow onClick={onBack} />
        <h2 id={useAuthHeadingId()} className="auth-heading">
          Enter OTP
        </h2>
      </div>
      <p id="otp-prompt">Please enter the 5-digit verification code sent to your email.</p>
      <Controller
        control={control}
        name="otp"
        render={({ field }) => <OtpInput value={field.value} onChange={field.onChange} describedBy="otp-prompt" />}
      />
      <p className="auth-resend">
        Didn't receive the code?{" "}
        <button
          type="button"
          className="link-button link-button--brand"
          disabled={countdown.remaining > 0 || resending}
          onClick={resend}
        >
          {countdown.remaining > 0 ? `Resend OTP in ${formatCountdown(countdown.remaining)}` : "Resend OTP"}
        </button>
      </p>
      <SubmitButton loading={formState.isSubmitting}>Submit</SubmitButton>
    </form>
  );
}

// --- Reset password ----------------------------------------------------------------

export function ResetPasswordStep({
  email,
  token,
  onForgot,
  onDone,
}: {
  email: string;
  token: string;
  onForgot: () => void;
  onDone: () => void;
}) {
  const { control, handleSubmit, formState } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: "", confirmPassword: "" },
  });
  const submit = handleSubmit(async (values) => {
    try {
      await call(
        api.PUT("/api/user/reset-password", {
          body: { email, password: values.password },
          headers: { Authorization: `Bearer ${token}` },
        }),
      );
      toast.success("Password updated successfully");
      onDone();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  });
  const heading = (
    <h2 id={useAuthHeadingId()} className="auth-heading">
      Reset Your Password
    </h2>
  );
  if (!token || !email) {
    return (
      <div className="auth-form">
        {heading}
        <p>To choose a new password, first confirm the code we send to your email.</p>
        <button type="button" className="button button--block" onClick={onForgot}>
          Send me a code
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="auth-form">
      {heading}
      <PasswordField control={control} name="password" label="Password" required autoComplete="new-password" placeholder="Enter new password" />
      <PasswordField control={control} name="confirmPassword" label="Confirm Password" required autoComplete="new-password" placeholder="Confirm new password" />
      <SubmitButton loading={formState.isSubmitting}>Submit</SubmitButton>
    </form>
  );
}
