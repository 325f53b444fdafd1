/**
 * /cms (admin, moderator): terms and conditions, about page, FAQ and privacy policy in the rich-text
 * editor with a preview, and the contact details. /review-setting: how reviews are published, and
 * the moderation list of reviews. The public pages read what is saved at once.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { api, call } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { SubmitButton } from "../../shared/forms/SubmitButton";
import { TextField } from "../../shared/forms/TextField";
import { formatDate } from "../../shared/format";
import "../../shared/ui/css/dashboard.css";
import { Spinner } from "../../shared/ui/Spinner";
import { toast } from "../../shared/ui/toast";
import "../account/people.css";
import { applyServerErrors, serverErrors } from "../account/people";
import { Preview, RichText } from "./RichText";
import { ReviewModeration } from "./ReviewModeration";
import type { IslandProps } from "../../shared/ui/mountIsland";

export const PAGES = [
  { key: "term", label: "Terms and Conditions", publicHref: "/terms-and-conditions" },
  { key: "about", label: "About", publicHref: "/about-us" },
  { key: "faq", label: "FAQ", publicHref: "/about-us?scroll=faq" },
  { key: "privacy", label: "Privacy Policy", publicHref: "/privacy-policy" },
] as const;
type PageKey = (typeof PAGES)[number]["key"];

function PageEditor({ page }: { page: (typeof PAGES)[number] }) {
  const queries = useQueryClient();
  const getPath = `/api/cms/${page.key}/get` as "/api/cms/term/get";
  const { data, isPending } = useQuery({
    queryKey: apiKey(getPath),
    queryFn: async () => (await call(api.GET(getPath))).data,
  });
  const [content, setContent] = useState("");
  const [title, setTitle] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (data) {
      setContent(data.content);
      setTitle(data.title);
    }
  }, [data]);

  const save = async () => {
    setBusy(true);
    setError("");
    try {
      const updatePath = `/api/cms/${page.key}/update` as "/api/cms/term/update";
      const answer = await call(api.PUT(updatePath, { body: { content, title } }), { silent: true });
      queries.setQueryData(apiKey(getPath), answer.data);
      setContent(answer.data.content);
      toast.success(answer.message);
    } catch (failure) {
      const errors = serverErrors(failure);
      const message = errors.content ?? errors.title ?? (failure as Error).message;
      setError(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  };

  if (isPending) return <Spinner size="large" />;
  return (
    <section className="dash-card people-card" aria-labelledby={`cms-${page.key}`}>
      <h2 id={`cms-${page.key}`}>{page.label}</h2>
      <div className="form-field">
        <label className="form-field__label" htmlFor={`cms-${page.key}-title`}>
          Title
        </label>
        <input id={`cms-${page.key}-title`} className="form-field__input" maxLength={120} value={title} onChange={(event) => setTitle(event.currentTarget.value)} />
      </div>
      <RichText label="Content" value={content} onChange={setContent} />
      {error && (
        <p className="form-field__error" role="alert">
          {error}
        </p>
      )}
      <div className="people-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void save()}>
          {busy ? "Saving…" : `Save ${page.label}`}
        </button>
        <a href={page.publicHref} target="_blank" rel="noopener noreferrer">
          View the public page
        </a>
        {data?.updatedAt && <span className="muted">Last saved {formatDate(data.updatedAt)}</span>}
      </div>
      <h3>Preview</h3>
      <Preview html={content} title={`${page.label} preview`} />
    </section>
  );
}

const contactSchema = z.object({
  fullName: z.string().trim().min(1, "Full name is required").max(100, "Full name must be at most 100 characters long"),
  location: z.string().trim().min(1, "Location is required").max(255, "Location must be at most 255 characters long"),
  recepientEmail: z.string().trim().min(1, "Recipient email is required").regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "Invalid email address"),
});
type ContactValues = z.input<typeof contactSchema>;

function ContactEditor() {
  const { data } = useQuery({
    queryKey: apiKey("/api/cms/contact/get"),
    queryFn: async () => (await call(api.GET("/api/cms/contact/get"))).data,
  });
  const form = useForm<ContactValues>({ resolver: zodResolver(contactSchema), defaultValues: { fullName: "", location: "", recepientEmail: "" }, mode: "onTouched" });
  const { control, handleSubmit, reset, setError, formState } = form;
  useEffect(() => {
    if (data) reset({ fullName: data.fullName, location: data.location, recepientEmail: data.recepientEmail });
  }, [data, reset]);
  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await call(api.PUT("/api/cms/contact/update", { body: values }), { silent: true });
      toast.success(answer.message);
    } catch (error) {
      const rest = applyServerErrors(error, setError, ["fullName", "location", "recepientEmail"]);
      toast.error(rest[0] ?? (error as Error).message);
    }
  });
  return (
    <form className="dash-card people-card people-form" onSubmit={onSubmit} noValidate aria-labelledby="contact-title">
      <h2 id="contact-title">Contact details</h2>
      <p className="muted">
        Shown on <a href="/contact-us">Contact Us</a>; the contact form's messages go to the recipient email.
      </p>
      <div className="people-grid">
        <TextField control={control} name="fullName" label="Full name" required />
        <TextField control={control} name="location" label="Location" required />
        <TextField control={control} name="recepientEmail" label="Recipient email" kind="email" required />
      </div>
      <div className="people-actions">
        <SubmitButton loading={formState.isSubmitting} className="button">
          Save contact details
        </SubmitButton>
      </div>
    </form>
  );
}

function CmsPages() {
  const [chosen, setChosen] = useState<PageKey>(() => {
    const asked = new URLSearchParams(window.location.search).get("page");
    return (PAGES.find((page) => page.key === asked)?.key ?? "term") as PageKey;
  });
  const choose = (key: PageKey) => {
    setChosen(key);
    window.history.replaceState(null, "", key === "term" ? window.location.pathname : `${window.location.pathname}?page=${key}`);
  };
  const page = PAGES.find((item) => item.key === chosen) ?? PAGES[0];
  return (
    <>
      <div className="dash-title">
        <h1>CMS Pages</h1>
      </div>
      <div className="dash-tabs" role="tablist" aria-label="Content pages">
        {PAGES.map((item) => (
          <button key={item.key} type="button" role="tab" aria-selected={item.key === chosen} className={`dash-tab${item.key === chosen ? " is-active" : ""}`} onClick={() => choose(item.key)}>
            {item.label}
          </button>
        ))}
      </div>
      <PageEditor key={page.key} page={page} />
      <ContactEditor />
    </>
  );
}

function ReviewSettings() {
  const queries = useQueryClient();
  const path = "/api/cms/review-setting/get";
  const { data, isPending } = useQuery({ queryKey: apiKey(path), queryFn: async () => (await call(api.GET(path))).data });
  const [busy, setBusy] = useState(false);
  const set = async (autoPublish: boolean) => {
    setBusy(true);
    try {
      const answer = await call(api.PUT("/api/cms/review-setting/update", { body: { autoPublish } }));
      queries.setQueryData(apiKey(path), answer.data);
      toast.success(answer.message || "Review settings updated successfully.");
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <div className="dash-title">
        <h1>Reviews Settings</h1>
      </div>
      <section className="dash-card people-card" aria-labelledby="publication-title">
        <h2 id="publication-title">Publication</h2>
        {isPending || !data ? (
          <Spinner size="large" />
        ) : (
          <fieldset className="people-form" disabled={busy}>
            <legend className="visually-hidden">When reviews appear</legend>
            <label className="people-toolbar">
              <input type="radio" name="publication" checked={data.autoPublish} onChange={() => void set(true)} />
              Publish reviews at once
            </label>
            <label className="people-toolbar">
              <input type="radio" name="publication" checked={!data.autoPublish} onChange={() => void set(false)} />
              Hold new reviews until a moderator publishes them
            </label>
            <p className="muted">Last changed {formatDate(data.updatedAt)}.</p>
          </fieldset>
        )}
      </section>
      <ReviewModeration />
    </>
  );
}

export function ContentScreen({ view }: Pick<IslandProps<"DashboardContent">, "view">) {
  return view === "reviews" ? <ReviewSettings /> : <CmsPages />;
}
