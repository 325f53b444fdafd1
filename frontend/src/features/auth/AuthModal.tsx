import { useEffect, useRef, useState } from "react";
import type { AuthStep } from "./authModal";
import { trackPageView } from "../consent/analytics";
import "./auth.css";
import { ForgotPasswordStep, LoginStep, OtpStep, RegisterStep, ResetPasswordStep } from "./steps";

export interface AuthModalProps {
  initialStep: AuthStep;
  /** On /become-host the register modal opens with "I want to host", and the OTP back arrow closes it. */
  becomeHost: boolean;
  /** The register form's preselected role (renter unless the page asks for host). */
  defaultRole?: "renter" | "host";
  onClose: () => void;
}

interface Flow {
  step: AuthStep;
  email: string;
  userID: string;
  resetToken: string;
  notice: string;
  /** Where the OTP step's back arrow returns to. */
  otpBack: AuthStep;
}

export function AuthModal({ initialStep, becomeHost, defaultRole, onClose }: AuthModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [flow, setFlow] = useState<Flow>({
    step: initialStep,
    email: "",
    userID: "",
    resetToken: "",
    notice: "",
    otpBack: "login",
  });
  const go = (step: AuthStep, changes: Partial<Flow> = {}) =>
    setFlow((current) => ({ ...current, notice: "", ...changes, step }));

  useEffect(() => {
    const element = dialog.current;
    if (element && typeof element.showModal === "function" && !element.open) element.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      onClose();
    };
    element?.addEventListener("cancel", cancel);
    return () => element?.removeEventListener("cancel", cancel);
  }, [onClose]);

  useEffect(() => {
    if (flow.step === "register") trackPageView("/register");
    dialog.current?.querySelector<HTMLElement>("input, select")?.focus();
  }, [flow.step]);

  const otpBack = () => (becomeHost ? onClose() : go(flow.otpBack));

  let body;
  switch (flow.step) {
    case "login":
      body = (
        <LoginStep
          notice={flow.notice}
          onRegister={() => go("register")}
          onForgot={() => go("forgotPassword")}
          onUnverified={(email, userID) => go("otpVerify", { email, userID, otpBack: "login" })}
        />
      );
      break;
    case "register":
      body = (
        <RegisterStep
          defaultRole={defaultRole ?? (becomeHost ? "host" : "renter")}
          onLogin={() => go("login")}
          onRegistered={(email, userID) => go("otpVerify", { email, userID, otpBack: "register" })}
        />
      );
      break;
    case "forgotPassword":
      body = (
        <ForgotPasswordStep
          onBack={() => go("login")}
          onSent={(email, userID) => go("otpForgot", { email, userID, otpBack: "forgotPassword" })}
        />
      );
      break;
    case "otpVerify":
    case "otpForgot":
      body = (
        <OtpStep
          key={flow.step}
          purpose={flow.step === "otpVerify" ? "verify" : "forgot"}
          email={flow.email}
          userID={flow.userID}
          onUserID={(userID) => setFlow((current) => ({ ...current, userID }))}
          onBack={otpBack}
          onVerified={(token) =>
            flow.step === "otpVerify"
              ? go("login", { notice: "User account verified successfully" })
              : go("resetPassword", { resetToken: token })
          }
        />
      );
      break;
    case "resetPassword":
      body = (
        <ResetPasswordStep
          email={flow.email}
          token={flow.resetToken}
          onForgot={() => go("forgotPassword")}
          onDone={() => go("login", { resetToken: "", notice: "Password updated successfully" })}
        />
      );
      break;
  }

  return (
    <dialog ref={dialog} className="auth-modal" aria-labelledby="auth-heading" data-step={flow.step}>
      <button type="button" className="auth-modal__close" aria-label="Close" onClick={onClose}>
        ×
      </button>
      <p className="auth-modal__tagline">A complete solution for workspace booking and venue management.</p>
      {body}
    </dialog>
  );
}
