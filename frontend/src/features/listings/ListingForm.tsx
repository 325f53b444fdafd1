/**
 * /add-new-listing and /edit-listing/{id}: one form in steps, kept as a draft on the server as the
 * host goes (a reload restores it), checked step by step with the server's rules, reviewed, then
 * submitted. The server's refusals land under their fields and the form keeps what was typed.
 */
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, ArrowRight, Check } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { FormProvider, type Resolver, useForm } from "react-hook-form";
import { api, ApiError, call } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import { Spinner } from "../../shared/ui/Spinner";
import { flashToast, toast } from "../../shared/ui/toast";
import "../../shared/ui/css/dashboard.css";
import "./listings.css";
import {
  allErrors,
  emptyListingForm,
  firstStepWithErrors,
  type FormErrors,
  formErrorsFromServer,
  fromDraft,
  fromListing,
  type ListingFormValues,
  type ListingLike,
  STEPS,
  type StepId,
  stepErrors,
  stepOfPath,
  toListingInput,
} from "./form";
import { StepContent } from "./FormSteps";
import type { IslandProps } from "../../shared/ui/mountIsland";

/** From the server; staff edit any host's listing through the moderation form, never the host's draft. */
export type ListingFormProps = Pick<
  IslandProps<"DashboardListingForm">,
  "mode" | "id" | "staff" | "hostTax" | "isPremiumHost" | "tileUrl" | "attribution"
>;

type RHFErrors = Record<string, unknown>;

/** `{"offerings.3.daily": "..."}` as react-hook-form's nested errors. */
export function nestErrors(errors: FormErrors): RHFErrors {
  const out: RHFErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const parts = path.split(".");
    let node = out;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = { type: "rule", message };
      else node = (node[part] ??= {}) as RHFErrors;
    });
  }
  return out;
}

const DRAFT_DELAY_MS = 1500;

function useDraftSaver(listingId: string | null, enabled: boolean) {
  const timer = useRef<number | undefined>(undefined);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const save = useCallback(
    (values: ListingFormValues, step: number) => {
      if (!enabled) return;
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        void call(api.PUT("/api/listing/draft", { body: { listingId, step, data: { ...values } } }), { silent: true })
          .then(() => setSavedAt(new Date()))
          .catch(() => undefined);
      }, DRAFT_DELAY_MS);
    },
    [listingId, enabled],
  );
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return { save, savedAt };
}

function Stepper({ step, onStep, errors }: { step: number; onStep: (index: number) => void; errors: FormErrors }) {
  const withErrors = new Set(Object.keys(errors).map(stepOfPath));
  return (
    <>
    {/* Phones: a thin bar instead of nine chips (the form's heading says "Step 2 of 9: Basics"). */}
    <div
      className="stepper-bar"
      role="progressbar"
      aria-label="Progress"
      aria-valuemin={1}
      aria-valuemax={STEPS.length}
      aria-valuenow={step + 1}
      aria-valuetext={`Step ${step + 1} of ${STEPS.length}`}
    >
      <span style={{ width: `${((step + 1) / STEPS.length) * 100}%` }} />
    </div>
    <ol className="stepper" aria-label="Steps">
      {STEPS.map((item, index) => (
        <li key={item.id} className={`stepper__step${index === step ? " is-current" : ""}${index < step ? " is-done" : ""}${withErrors.has(item.id) ? " has-error" : ""}`}>
          <button type="button" onClick={() => onStep(index)} aria-current={index === step ? "step" : undefined} disabled={index > step}>
            <span className="stepper__number" aria-hidden="true">
              {index < step ? <Check size={14} /> : index + 1}
            </span>
            <span className="stepper__title">{item.title}</span>
          </button>
        </li>
      ))}
    </ol>
    </>
  );
}

function Form({ props, initial, initialStep, listing, restored }: { props: ListingFormProps; initial: ListingFormValues; initialStep: number; listing: ListingLike | null; restored: boolean }) {
  const [step, setStep] = useState(initialStep);
  const [serverErrors, setServerErrors] = useState<FormErrors>({});
  const stepRef = useRef<StepId>(STEPS[initialStep].id);
  stepRef.current = STEPS[step].id;
  const resolver: Resolver<ListingFormValues> = useCallback(async (values) => {
    const errors = stepRef.current === "review" ? allErrors(values) : stepErrors(stepRef.current, values);
    return Object.keys(errors).length ? { values: {}, errors: nestErrors(errors) as never } : { values, errors: {} };
  }, []);
  const form = useForm<ListingFormValues>({ defaultValues: initial, resolver, mode: "onTouched" });
  const listingId = props.mode === "edit" ? props.id : null;
  const draft = useDraftSaver(listingId, true);
  const [submitting, setSubmitting] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const subscription = form.watch((values) => draft.save(values as ListingFormValues, step + 1));
    return () => subscription.unsubscribe();
  }, [form, draft, step]);

  const goTo = (index: number) => {
    setStep(index);
    window.scrollTo({ top: 0 });
    window.setTimeout(() => heading.current?.focus(), 0);
  };

  const next = form.handleSubmit(() => {
    const values = form.getValues();
    form.reset(values, { keepDirty: true, keepDefaultValues: true });
    draft.save(values, step + 2);
    goTo(step + 1);
  });

  const submit = form.handleSubmit(async (values) => {
    const errors = allErrors(values);
    if (Object.keys(errors).length) {
      const first = firstStepWithErrors(errors);
      if (first) goTo(STEPS.findIndex((item) => item.id === first));
      return;
    }
    setSubmitting(true);
    setServerErrors({});
    try {
      const body = toListingInput(values);
      const answer =
        props.mode === "edit"
          ? await call(api.PUT("/api/listing/update/{listing_id}", { params: { path: { listing_id: props.id } }, body }), { silent: true })
          : await call(api.POST("/api/listing/create", { body }), { silent: true });
      void invalidate(["/api/listing", "/api/dashboard/pending-counter"]);
      flashToast(answer.message || "Listing saved.", "success");
      const saved = answer.data;
      window.location.assign(`/listing-detail/${saved._id}`);
    } catch (error) {
      setSubmitting(false);
      if (!(error instanceof ApiError)) return;
      toast.error(error.message);
      const fieldErrors = formErrorsFromServer(((error.body as { errors?: Record<string, string[]> } | null)?.errors ?? {}) as Record<string, string[]>, values);
      setServerErrors(fieldErrors);
      for (const [path, message] of Object.entries(fieldErrors)) form.setError(path as never, { type: "server", message });
      const first = firstStepWithErrors(fieldErrors);
      if (first && first !== "review") goTo(STEPS.findIndex((item) => item.id === first));
    }
  });

  const discardDraft = async () => {
    await call(api.DELETE("/api/listing/draft", { params: { query: listingId ? { listingId } : {} } }), { silent: true }).catch(() => undefined);
    window.location.reload();
  };

  const current = STEPS[step];
  const errorsNow = { ...serverErrors };
  return (
    <FormProvider {...form}>
      <div className="dash-title">
        <h1>{props.mode === "edit" ? "Edit Listing" : "Add New Listing"}</h1>
        <p className="dash-note" aria-live="polite">
          {draft.savedAt ? `Draft saved at ${draft.savedAt.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" })}` : "Your changes are kept as a draft as you go."}
        </p>
      </div>
      {restored && (
        <p className="dash-warning" role="status">
          We restored the draft you left.{" "}
          <button type="button" className="button button--quiet" onClick={() => void discardDraft()}>
            Discard the draft
          </button>
        </p>
      )}
      {listing && props.mode === "edit" && listing.status === "approved" && (
        <p className="dash-note">Changes to the title, description, photos, location, amenities or facilities are reviewed before they go live; the listing stays as it is meanwhile.</p>
      )}
      <Stepper step={step} onStep={goTo} errors={errorsNow} />
      <form
        className="dash-card listing-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void (current.id === "review" ? submit() : next());
        }}
      >
        <h2 ref={heading} tabIndex={-1}>
          Step {step + 1} of {STEPS.length}: {current.title}
        </h2>
        <StepContent step={current.id} props={props} listing={listing} />
        <div className="form-actions">
          {step > 0 && (
            <button type="button" className="button button--quiet" onClick={() => goTo(step - 1)} disabled={submitting}>
              <ArrowLeft aria-hidden="true" size={16} /> Back
            </button>
          )}
          {current.id === "review" ? (
            <button type="submit" className="button" disabled={submitting}>
              {submitting ? <Spinner label="Submitting" /> : props.mode === "edit" ? "Save changes" : "Submit for review"}
            </button>
          ) : (
            <button type="submit" className="button">
              Next <ArrowRight aria-hidden="true" size={16} />
            </button>
          )}
        </div>
      </form>
    </FormProvider>
  );
}

export function ListingFormPage(props: ListingFormProps) {
  const staff = props.staff;
  const listingId = props.mode === "edit" ? props.id : null;
  const listing = useQuery({
    queryKey: apiKey("/api/listing/get-single/{listing_id}", { id: props.id }),
    queryFn: ({ signal }) =>
      call(api.GET("/api/listing/get-single/{listing_id}", { params: { path: { listing_id: props.id } }, signal })).then((answer) => answer.data),
    enabled: Boolean(listingId) && !staff,
    retry: false,
  });
  const draft = useQuery({
    queryKey: apiKey("/api/listing/draft", { listingId }),
    queryFn: ({ signal }) =>
      call(api.GET("/api/listing/draft", { params: { query: listingId ? { listingId } : {} }, signal }), { silent: true }).then((answer) => answer.data),
    enabled: !staff,
    retry: false,
  });
  const initial = useMemo(() => {
    if (draft.data) return { values: fromDraft(draft.data.data), step: Math.min(Math.max(draft.data.step - 1, 0), STEPS.length - 1), restored: true };
    if (listing.data) return { values: fromListing(listing.data), step: 1, restored: false };
    return { values: emptyListingForm(), step: 0, restored: false };
  }, [draft.data, listing.data]);

  if (staff) {
    return (
      <section className="dash-card">
        <h1>Edit Listing</h1>
        <p>Hosts edit their listings; admins and moderators review the changes.</p>
        <p>
          <a href={`/listing-detail/${props.id}`}>Open the listing and its waiting changes</a>
        </p>
      </section>
    );
  }
  if (draft.isPending || (listingId && listing.isPending)) return <Spinner size="large" />;
  if (listingId && !listing.data) {
    return (
      <section className="dash-card">
        <h1>Listing not found</h1>
        <p>
          <a href="/listing">Back to the listings</a>
        </p>
      </section>
    );
  }
  return <Form props={props} initial={initial.values} initialStep={initial.step} listing={listing.data ?? null} restored={initial.restored} />;
}
