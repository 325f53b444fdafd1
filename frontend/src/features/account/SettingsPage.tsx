/**
 * /general (General Settings): notifications per kind and channel, change password, change e-mail
 * (confirmed by a code sent to the new address), the host's tax percent, the premium payment
 * history, and closing the account with what happens spelled out first.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { api, call, type Schemas } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { clearStoredSession } from "../../shared/api/session";
import { navigation } from "../../shared/browser/navigation";
import { OtpInput } from "../../shared/forms/OtpInput";
import { PasswordField } from "../../shared/forms/PasswordField";
import { PasswordStrength } from "../../shared/forms/PasswordStrength";
import { SubmitButton } from "../../shared/forms/SubmitButton";
import { TextField } from "../../shared/forms/TextField";
import { formatDate, money } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import "../../shared/ui/css/dashboard.css";
import { Spinner } from "../../shared/ui/Spinner";
import { DataTable } from "../../shared/ui/Table";
import { flashToast, toast } from "../../shared/ui/toast";
import "./people.css";
import { applyServerErrors, serverErrors } from "./people";
import { accountKey, useWholeAccount } from "./queries";
import {
  type EmailChangeValues,
  emailChangeSchema,
  type PasswordChangeValues,
  passwordChangeSchema,
  type TaxValues,
  taxSchema,
} from "./schemas";
import type { IslandProps } from "../../shared/ui/mountIsland";

const CHANNEL_LABELS: Record<string, string> = { inApp: "In-app", email: "E-mail", push: "Push" };
const SETTINGS_PATH = "/api/user/notification-settings";

type Settings = Record<string, Record<string, boolean>>;

function NotificationSettings() {
  const queries = useQueryClient();
  const { data, isPending } = useQuery({
    queryKey: apiKey(SETTINGS_PATH),
    queryFn: async () => (await call(api.GET(SETTINGS_PATH))).data,
  });
  const [draft, setDraft] = useState<Settings>({});
  useEffect(() => {
    if (data) setDraft(data.settings);
  }, [data]);
  const save = useMutation({
    mutationFn: async () => call(api.PUT(SETTINGS_PATH, { body: { settings: draft } })),
    onSuccess: (answer) => {
      queries.setQueryData(apiKey(SETTINGS_PATH), answer.data);
      toast.success(answer.message || "Notification settings updated successfully.");
    },
  });
  const kinds = data?.kinds ?? [];
  const channels = data?.channels ?? [];
  return (
    <section className="dash-card people-card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <p className="muted">Choose how we tell you about each kind of event.</p>
      {isPending ? (
        <Spinner size="large" />
      ) : (
        <div className="people-scroll">
          <table className="people-settings-table">
            <thead>
              <tr>
                <th scope="col">Notification</th>
                {channels.map((channel) => (
                  <th key={channel} scope="col">
                    {CHANNEL_LABELS[channel] ?? channel}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {kinds.map((kind) => (
                <tr key={kind.key}>
                  <th scope="row">{kind.label}</th>
                  {channels.map((channel) => (
                    <td key={channel}>
                      <input
                        type="checkbox"
                        aria-label={`${kind.label}: ${CHANNEL_LABELS[channel] ?? channel}`}
                        checked={Boolean(draft[kind.key]?.[channel])}
                        onChange={(event) => {
                          const checked = event.currentTarget.checked;
                          setDraft((current) => ({ ...current, [kind.key]: { ...current[kind.key], [channel]: checked } }));
                        }}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="people-actions">
        <button type="button" className="button" disabled={save.isPending || isPending} onClick={() => save.mutate()}>
          {save.isPending ? "Saving…" : "Save notification settings"}
        </button>
      </div>
    </section>
  );
}

function PasswordChange() {
  const form = useForm<PasswordChangeValues>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
    mode: "onTouched",
  });
  const { control, handleSubmit, setError, reset, watch, formState } = form;
  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await call(api.PUT("/api/user/change-password", { body: values }), { silent: true });
      toast.success(answer.message || "Password updated successfully");
      reset();
    } catch (error) {
      const rest = applyServerErrors(error, setError, ["currentPassword", "newPassword", "confirmPassword"], { password: "newPassword" });
      toast.error(rest[0] ?? (error as Error).message);
    }
  });
  return (
    <form className="dash-card people-card people-form" onSubmit={onSubmit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <PasswordField control={control} name="currentPassword" label="Current password" required autoComplete="current-password" />
      <PasswordField control={control} name="newPassword" label="New password" required autoComplete="new-password">
        <PasswordStrength password={watch("newPassword") ?? ""} />
      </PasswordField>
      <PasswordField control={control} name="confirmPassword" label="Confirm Password" required autoComplete="new-password" />
      <div className="people-actions">
        <SubmitButton loading={formState.isSubmitting} className="button">
          Update password
        </SubmitButton>
      </div>
    </form>
  );
}

function EmailChange({ userId, email }: { userId: string; email: string }) {
  const queries = useQueryClient();
  const [sentTo, setSentTo] = useState("");
  const [otp, setOtp] = useState("");
  const [otpError, setOtpError] = useState("");
  const [busy, setBusy] = useState(false);
  const form = useForm<EmailChangeValues>({ resolver: zodResolver(emailChangeSchema), defaultValues: { email: "", password: "" }, mode: "onTouched" });
  const { control, handleSubmit, setError, formState } = form;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await call(api.POST("/api/user/change-email", { body: values }), { silent: true });
      toast.success(answer.message);
      setSentTo(values.email.trim().toLowerCase());
      setOtp("");
      setOtpError("");
    } catch (error) {
      const rest = applyServerErrors(error, setError, ["email", "password"]);
      toast.error(rest[0] ?? (error as Error).message);
    }
  });

  const verify = async () => {
    if (!/^\d{5}$/.test(otp)) {
      setOtpError("Please enter the 5-digit code");
      return;
    }
    setBusy(true);
    try {
      const answer = await call(api.POST("/api/user/change-email/verify", { body: { otp } }), { silent: true });
      toast.success(answer.message || "Email updated successfully.");
      setSentTo("");
      form.reset();
      await queries.invalidateQueries({ queryKey: accountKey(userId) });
    } catch (error) {
      const message = serverErrors(error).otp ?? (error as Error).message;
      setOtpError(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="dash-card people-card" aria-labelledby="email-title">
      <h2 id="email-title">Change email</h2>
      <p className="muted">
        Your email is <strong data-testid="current-email">{email}</strong>. It keeps working until you confirm the new one.
      </p>
      {!sentTo ? (
        <form className="people-form" onSubmit={onSubmit} noValidate aria-label="Change email">
          <TextField control={control} name="email" label="New email" kind="email" required autoComplete="email" />
          <PasswordField control={control} name="password" label="Password" required />
          <div className="people-actions">
            <SubmitButton loading={formState.isSubmitting} className="button">
              Send code
            </SubmitButton>
          </div>
        </form>
      ) : (
        <div className="people-form">
          <p id="otp-prompt">Please enter the 5-digit verification code sent to {sentTo}.</p>
          <OtpInput value={otp} onChange={setOtp} invalid={Boolean(otpError)} describedBy="otp-prompt" />
          {otpError && (
            <p className="form-field__error" role="alert">
              {otpError}
            </p>
          )}
          <div className="people-actions">
            <button type="button" className="button" disabled={busy} onClick={() => void verify()}>
              {busy ? "Checking…" : "Confirm new email"}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setSentTo("")}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function TaxSetting({ tax }: { tax: string }) {
  const form = useForm<TaxValues>({ resolver: zodResolver(taxSchema), defaultValues: { tax: String(Number(tax)) }, mode: "onTouched" });
  const { control, handleSubmit, setError, formState } = form;
  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await call(api.PUT("/api/user/tax", { body: { tax: values.tax } }), { silent: true });
      toast.success(answer.message || "Tax updated successfully.");
    } catch (error) {
      const rest = applyServerErrors(error, setError, ["tax"]);
      toast.error(rest[0] ?? (error as Error).message);
    }
  });
  return (
    <form className="dash-card people-card people-form" onSubmit={onSubmit} noValidate aria-labelledby="tax-title">
      <h2 id="tax-title">Tax</h2>
      <p className="muted">The tax percent added to your future bookings' invoices.</p>
      <TextField control={control} name="tax" label="Tax percent" kind="percentage" required />
      <div className="people-actions">
        <SubmitButton loading={formState.isSubmitting} className="button">
          Save tax
        </SubmitButton>
      </div>
    </form>
  );
}

type SubscriptionPayment = Schemas["HostSubscriptionPayment"];

function PremiumHistory() {
  const [page, setPage] = useState(1);
  const path = "/api/payment/get-all-host-subscription";
  const { data, isPending } = useQuery({
    queryKey: apiKey(path, { page }),
    queryFn: async () => (await call(api.GET(path, { params: { query: { page, limit: 10 } } }))).data,
  });
  const rows = (data?.subscriptions ?? []).filter((row) => row.status === "completed");
  return (
    <DataTable<SubscriptionPayment>
      caption="Premium payment history"
      rows={rows}
      loading={isPending}
      rowKey={(row) => row._id}
      columns={[
        { key: "date", header: "Date", render: (row) => formatDate(row.createdAt) },
        { key: "plan", header: "Plan", render: (row) => row.planName },
        { key: "amount", header: "Amount", render: (row) => money(row.totalAmount) },
        { key: "status", header: "Status", render: (row) => <Badge status={row.status ?? ""} /> },
      ]}
      page={page}
      totalPages={data?.totalPages ?? 1}
      onPage={setPage}
    />
  );
}

/** What closing the account does beyond signing out, by the notes the server names for this user. */
const CLOSING_NOTES: Record<string, string> = {
  listings:
    "Your listings disappear from search and your public host page at once, so nobody can book them any more. Answer or cancel pending requests and upcoming bookings first.",
  subHosts: "Your sub-hosts are closed with your account.",
  earnings: "Earnings not yet paid out stay in our records; contact us to have them paid before you close the account.",
  upcomingBookings: "Cancel upcoming bookings first if you will not attend: the host keeps expecting you and the cancellation policy applies.",
};

/** What closing the account does, in the words the service's behaviour bears out. */
export function closingConsequences(notes: string[]): string[] {
  const common = [
    "You are signed out on every device at once and can no longer log in with this email.",
    "Bookings, invoices, payments and disputes stay on record: the other party and our staff still need them for receipts, refunds and payouts. Closing the account does not cancel or refund anything by itself.",
  ];
  return [...common, ...notes.flatMap((note) => (CLOSING_NOTES[note] ? [CLOSING_NOTES[note]] : []))];
}

function CloseAccount({ notes }: { notes: string[] }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const close = async () => {
    setBusy(true);
    try {
      await call(api.POST("/api/user/delete-account", { body: { password } }), { silent: true });
      clearStoredSession();
      flashToast("Your account was deleted.", "success");
      navigation.assign("/");
    } catch (failure) {
      const message = serverErrors(failure).password ?? (failure as Error).message;
      setError(message);
      setConfirming(false);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="dash-card people-card" aria-labelledby="close-title">
      <h2 id="close-title">Close account</h2>
      <p>Before you close your account, this is what happens:</p>
      <ul data-testid="closing-consequences">
        {closingConsequences(notes).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <div className="form-field">
        <label className="form-field__label" htmlFor="close-password">
          Password
        </label>
        <input
          id="close-password"
          type="password"
          className="form-field__input"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "close-password-error" : undefined}
        />
        {error && (
          <p className="form-field__error" id="close-password-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="people-actions">
        <button
          type="button"
          className="button button--danger"
          onClick={() => {
            if (!password) {
              setError("Password is required");
              return;
            }
            setError("");
            setConfirming(true);
          }}
        >
          Close my account
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          title="Close account"
          message="Close your account now? This cannot be undone from your side."
          confirmLabel="Close account"
          busy={busy}
          onConfirm={() => void close()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

/**
 * What the server's policies offer this user: the tax (host), premium history (host side), closing
 * the account, and what closing it does for this user beyond the common consequences.
 */
type SettingsProps = Pick<IslandProps<"DashboardSettings">, "userId" | "setsTax" | "seesPremiumHistory" | "closesAccount" | "closingNotes">;

export function SettingsPage({ userId, setsTax, seesPremiumHistory, closesAccount, closingNotes }: SettingsProps) {
  const { data } = useWholeAccount(userId, { silent: true });
  const user = data?.user;
  return (
    <>
      <div className="dash-title">
        <h1>General Settings</h1>
      </div>
      <NotificationSettings />
      <PasswordChange />
      {user && <EmailChange userId={userId} email={user.email} />}
      {setsTax && user && <TaxSetting tax={String(user.tax)} />}
      {seesPremiumHistory && <PremiumHistory />}
      {closesAccount && <CloseAccount notes={closingNotes} />}
    </>
  );
}
