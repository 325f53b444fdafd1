/**
 * Contact Us (spec 2.8 and section 5): name, phone number, email and message with the spec's
 * messages, sent to POST /api/cms/contact/send-mail; "Mail sent." as a toast and the form emptied.
 * The server's field errors land under the fields, and what was typed stays.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { api, ApiError, call } from "../../shared/api/client";
import { TextAreaField } from "../../shared/forms/fields";
import { PhoneField } from "../../shared/forms/PhoneField";
import { contactSchema, type ContactValues } from "../../shared/forms/schemas";
import { SubmitButton } from "../../shared/forms/SubmitButton";
import { TextField } from "../../shared/forms/TextField";
import { toast } from "../../shared/ui/toast";

export const MAIL_SENT = "Mail sent.";
const EMPTY: ContactValues = { name: "", phoneNumber: "", email: "", message: "" };

/** What a visitor already typed into the server-rendered form before the island took over. */
export function typedValues(form: HTMLFormElement | null): ContactValues {
  if (!form) return EMPTY;
  const data = new FormData(form);
  const value = (name: keyof ContactValues) => String(data.get(name) ?? "");
  return { name: value("name"), phoneNumber: value("phoneNumber").replace(/\D/g, "").slice(0, 10), email: value("email"), message: value("message") };
}

export function ContactForm({ initial = EMPTY }: { initial?: ContactValues }) {
  const { control, handleSubmit, reset, setError, formState } = useForm<ContactValues>({
    resolver: zodResolver(contactSchema),
    defaultValues: initial,
    mode: "onTouched",
  });

  const send = handleSubmit(async (values) => {
    try {
      const answer = await call(api.POST("/api/cms/contact/send-mail", { body: values as Required<ContactValues> }), { ownAuthErrors: true });
      toast.success(answer.message || MAIL_SENT);
      reset(EMPTY);
    } catch (error) {
      // The client has shown the server's sentence; put each field's message under its field.
      const errors = error instanceof ApiError ? (error.body as { errors?: Record<string, string[]> } | null)?.errors : null;
      for (const [field, messages] of Object.entries(errors ?? {})) {
        if (field in EMPTY) setError(field as keyof ContactValues, { message: messages[0] }, { shouldFocus: true });
      }
    }
  });

  return (
    <form className="contact-form" noValidate onSubmit={send} aria-label="Send us a message">
      <TextField control={control} name="name" label="Name" required maxLength={25} autoComplete="name" />
      <PhoneField control={control} name="phoneNumber" label="Phone number" required maxDigits={10} />
      <TextField control={control} name="email" label="Email" kind="email" required autoComplete="email" />
      <TextAreaField control={control} name="message" label="Message" required rows={6} />
      <SubmitButton loading={formState.isSubmitting} className="button">
        Send message
      </SubmitButton>
    </form>
  );
}
