/**
 * Photos: upload (type and size checked before sending, as the server checks again), reorder,
 * choose the cover (the first), alt text, remove. The server re-encodes each upload to WebP in
 * three widths.
 */
import { ArrowDown, ArrowUp, ImagePlus, Star, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import type { Schemas } from "../../shared/api/client";
import { upload } from "../../shared/api/upload";
import { Spinner } from "../../shared/ui/Spinner";
import { LIMITS, type ListingFormValues, type PhotoValues } from "./form";

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];
const PER_UPLOAD = 10;

/** Why a chosen file cannot be sent, or null (the server says the same again). */
export function photoProblem(file: File): string | null {
  if (!PHOTO_TYPES.includes(file.type)) return `${file.name}: only JPEG, PNG, WebP or GIF images are accepted.`;
  if (file.size > MAX_PHOTO_BYTES) return `${file.name}: images may be at most 10 MB.`;
  return null;
}

/** The files' stored paths; the step shows the server's sentence itself (silent). */
async function uploadPhotos(files: File[]): Promise<string[]> {
  const body = new FormData();
  files.forEach((file) => body.append("files", file));
  const answer = await upload<Schemas["MediaUploadResponse"]>("/api/media/uploads", body, { silent: true });
  return answer.data.filesPath;
}

export function PhotosStep() {
  const { control, setValue, formState } = useFormContext<ListingFormValues>();
  const images = (useWatch({ control, name: "images" }) ?? []) as PhotoValues[];
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const set = (next: PhotoValues[]) => setValue("images", next, { shouldDirty: true, shouldValidate: formState.isSubmitted });

  const choose = async (list: FileList | null) => {
    const files = Array.from(list ?? []);
    if (!files.length) return;
    const refused = files.map(photoProblem).filter(Boolean);
    if (refused.length) {
      setProblem(refused.join(" "));
      return;
    }
    if (images.length + files.length > LIMITS.images) {
      setProblem(`A listing may have at most ${LIMITS.images} images.`);
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const paths: string[] = [];
      for (let start = 0; start < files.length; start += PER_UPLOAD) paths.push(...(await uploadPhotos(files.slice(start, start + PER_UPLOAD))));
      set([...images, ...paths.map((path) => ({ path, alt: "" }))]);
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const move = (index: number, to: number) => {
    const next = [...images];
    const [item] = next.splice(index, 1);
    next.splice(to, 0, item);
    set(next);
  };
  const error = (formState.errors.images as { message?: string } | undefined)?.message;
  return (
    <div className="photos">
      <div className="form-field">
        <label className="form-field__label" htmlFor={inputId}>
          <ImagePlus aria-hidden="true" size={16} /> Add photos <span aria-hidden="true">*</span>
        </label>
        <input
          id={inputId}
          type="file"
          accept={PHOTO_TYPES.join(",")}
          multiple
          disabled={busy}
          aria-describedby={`${inputId}-hint`}
          onChange={(event) => {
            void choose(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
        <p className="form-field__hint" id={`${inputId}-hint`}>
          JPEG, PNG, WebP or GIF, up to 10 MB each, {LIMITS.images} at most. The first photo is the cover.
        </p>
        {busy && <Spinner label="Uploading" />}
        {(problem || error) && (
          <p className="form-field__error" role="alert">
            {problem || error}
          </p>
        )}
      </div>
      <ol className="photo-list">
        {images.map((image, index) => (
          <li key={image.path} className="photo-item">
            <img src={`/uploads/${image.path.replace(/(\.\w+)$/, "-sm$1")}`} alt="" width={160} height={107} onError={(event) => (event.currentTarget.src = `/uploads/${image.path}`)} />
            <div className="photo-item__body">
              {index === 0 ? <span className="badge">Cover</span> : null}
              <label className="form-field__label" htmlFor={`${inputId}-alt-${index}`}>
                Alt text for photo {index + 1}
              </label>
              <input
                id={`${inputId}-alt-${index}`}
                className="form-field__input"
                maxLength={LIMITS.alt}
                value={image.alt}
                placeholder="What the photo shows"
                onChange={(event) => set(images.map((item, position) => (position === index ? { ...item, alt: event.currentTarget.value } : item)))}
              />
              <div className="photo-item__actions">
                <button type="button" className="button button--quiet" disabled={index === 0} onClick={() => move(index, 0)} aria-label={`Make cover photo ${index + 1}`}>
                  <Star aria-hidden="true" size={14} /> Make cover
                </button>
                <button type="button" className="button button--quiet" disabled={index === 0} onClick={() => move(index, index - 1)} aria-label={`Move photo ${index + 1} up`}>
                  <ArrowUp aria-hidden="true" size={14} />
                </button>
                <button type="button" className="button button--quiet" disabled={index === images.length - 1} onClick={() => move(index, index + 1)} aria-label={`Move photo ${index + 1} down`}>
                  <ArrowDown aria-hidden="true" size={14} />
                </button>
                <button type="button" className="button button--quiet" onClick={() => set(images.filter((_, position) => position !== index))} aria-label={`Remove photo ${index + 1}`}>
                  <Trash2 aria-hidden="true" size={14} />
                </button>
              </div>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
