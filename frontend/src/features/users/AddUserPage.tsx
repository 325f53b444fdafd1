/** /addhost, /add-subhost, /add-moderator: invite a person, who receives a link to choose a password. */
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { api, call, type Schemas } from "../../shared/api/client";
import { navigation } from "../../shared/browser/navigation";
import { SubmitButton } from "../../shared/forms/SubmitButton";
import { MESSAGES } from "../../shared/forms/schemas";
import { TextField } from "../../shared/forms/TextField";
import "../../shared/ui/css/dashboard.css";
import { flashToast, toast } from "../../shared/ui/toast";
import "../account/people.css";
import { applyServerErrors } from "../account/people";
import { TAX_MESSAGE, USER_NAME, USER_NAME_MESSAGE } from "../account/schemas";
import { type Kind, KINDS } from "./kinds";

const name = (label: string) =>
  z.string().trim().min(1, `${label} is required`).max(50, `${label} must be at most 50 characters long`);

export const inviteSchema = z.object({
  firstName: name("First name"),
  lastName: name("Last name"),
  email: z.string().trim().min(1, MESSAGES.emailRequired).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, MESSAGES.emailInvalid),
  userName: z.string().trim().refine((value) => value === "" || USER_NAME.test(value), USER_NAME_MESSAGE),
  tax: z.string().trim().refine((value) => value === "" || (/^\d{1,3}(\.\d{1,2})?$/.test(value) && Number(value) <= 100), TAX_MESSAGE),
});
export type InviteValues = z.input<typeof inviteSchema>;

const PATHS = { hosts: "/api/user/addhost", subHosts: "/api/user/add-subhost", moderators: "/api/user/add-moderator" } as const;

export function AddUserPage({ kind }: { kind: Exclude<Kind, "renters"> }) {
  const info = KINDS[kind];
  const [formError, setFormError] = useState("");
  const form = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { firstName: "", lastName: "", email: "", userName: "", tax: "" },
    mode: "onTouched",
  });
  const { control, handleSubmit, setError, formState } = form;
  const onSubmit = handleSubmit(async (values) => {
    setFormError("");
    // The host form sends the most (user name and tax); the others the name and e-mail only.
    const body: Schemas["AddHostInputRequest"] = {
      firstName: values.firstName,
      lastName: values.lastName,
      email: values.email,
    };
    if (kind === "hosts") {
      if (values.userName) body.userName = values.userName;
      if (values.tax) body.tax = values.tax;
    }
    try {
      const answer = await call(api.POST(PATHS[kind], { body }), { silent: true });
      flashToast(answer.message, "success");
      navigation.assign(info.listHref);
    } catch (error) {
      const rest = applyServerErrors(error, setError, ["firstName", "lastName", "email", "userName", "tax"]);
      // Field messages show under their fields; anything else above the button.
      if (rest.length) setFormError(rest[0]);
      toast.error(rest[0] ?? (error as Error).message);
    }
  });
  return (
    <>
      <div className="dash-title">
        <h1>{info.addLabel}</h1>
        <a className="button button--ghost" href={info.listHref}>
          Back to {info.title}
        </a>
      </div>
      <form className="dash-card people-card people-form" onSubmit={onSubmit} noValidate aria-label={info.addLabel}>
        <p className="muted">We e-mail the new {info.noun} a link to choose a password. The link is valid for 3 days; you can send it again from the list.</p>
        <div className="people-grid">
          <TextField control={control} name="firstName" label="First name" required />
          <TextField control={control} name="lastName" label="Last name" required />
          <TextField control={control} name="email" label="Email" kind="email" required />
          {kind === "hosts" && (
            <>
              <TextField control={control} name="userName" label="User name" hint="Optional: the public host page /host/ followed by it." />
              <TextField control={control} name="tax" label="Tax percent" kind="percentage" hint="Optional: added to the host's invoices." />
            </>
          )}
        </div>
        {formError && (
          <p className="form-field__error" role="alert">
            {formError}
          </p>
        )}
        <div className="people-actions">
          <SubmitButton loading={formState.isSubmitting} className="button">
            Send invitation
          </SubmitButton>
        </div>
      </form>
    </>
  );
}
