/**
 * Listing images: pick files, see them at once, upload them as multipart to
 * POST /api/media/uploads with a progress bar, reorder them, and remove them (an uploaded file
 * through DELETE /api/media/remove). The server's limits are checked before sending: JPEG, PNG,
 * WebP or GIF, at most 10 MB each, 10 per upload, and the field's own maximum.
 *
 * The upload goes through the shared `upload` with its progress (XMLHttpRequest, as fetch reports
 * none): the same cookie, CSRF header and 401 handling as the API client; a failure toasts the
 * server's sentence.
 */
import { ArrowDown, ArrowUp, ImagePlus, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { api, call, type Schemas } from "../api/client";
import { upload } from "../api/upload";
import { CONSTANTS } from "../constants";
import "./css/kit.css";
import { toast } from "./toast";

/** The server's limits (apps/core/images.py, apps/listings/media.py), generated into shared/constants.json. */
export const UPLOAD_TYPES: readonly string[] = CONSTANTS.uploads.imageTypes;
export const MAX_UPLOAD_BYTES = CONSTANTS.uploads.imageMaxBytes;
export const MAX_FILES_PER_UPLOAD = CONSTANTS.uploads.listingImagesPerUpload;

/** An uploaded image: its storage path (what forms send) and a URL to show it. */
export interface UploadedImage {
  path: string;
  url: string;
}

/** Why a file cannot be sent, in the server's words; null when it can. */
export function fileProblem(file: Pick<File, "name" | "type" | "size">): string | null {
  if (!UPLOAD_TYPES.includes(file.type)) return `${file.name}: only JPEG, PNG, WebP or GIF images are accepted.`;
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name}: images may be at most ${Math.round(MAX_UPLOAD_BYTES / 1024 / 1024)} MB.`;
  return null;
}

/** Split the chosen files into those to send and the sentences for the others, within `room` places. */
export function checkFiles(files: readonly File[], room: number): { accepted: File[]; problems: string[] } {
  const accepted: File[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const problem = fileProblem(file);
    if (problem) problems.push(problem);
    else accepted.push(file);
  }
  const limit = Math.min(room, MAX_FILES_PER_UPLOAD);
  if (accepted.length > limit) {
    problems.push(room < MAX_FILES_PER_UPLOAD ? `You can add ${Math.max(room, 0)} more image${room === 1 ? "" : "s"}.` : `Upload at most ${MAX_FILES_PER_UPLOAD} images at a time.`);
    accepted.splice(limit);
  }
  return { accepted, problems };
}

/** Move the item at `from` by `step` (-1 up, +1 down); the list is unchanged at the ends. */
export function move<T>(items: readonly T[], from: number, step: -1 | 1): T[] {
  const to = from + step;
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}

/** POST the files as multipart `files`; `onProgress` gets 0 to 100. The field shows the sentence itself. */
export async function uploadFiles(files: readonly File[], onProgress: (percent: number) => void): Promise<UploadedImage[]> {
  const body = new FormData();
  for (const file of files) body.append("files", file);
  const answer = await upload<Schemas["MediaUploadResponse"]>("/api/media/uploads", body, { onProgress, silent: true });
  return answer.data.files.map((item) => ({ path: item.path, url: item.url }));
}

export interface FileUploadProps {
  label: string;
  value: UploadedImage[];
  onChange: (images: UploadedImage[]) => void;
  /** Most images the field holds (a listing: 20). */
  max?: number;
}

export function FileUpload({ label, value, onChange, max = 20 }: FileUploadProps) {
  const inputId = useId();
  const [pending, setPending] = useState<{ name: string; preview: string }[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);

  const choose = async (files: File[]) => {
    const { accepted, problems: found } = checkFiles(files, max - value.length);
    setProblems(found);
    if (!accepted.length) return;
    const previews = accepted.map((file) => ({ name: file.name, preview: URL.createObjectURL?.(file) ?? "" }));
    setPending(previews);
    setProgress(0);
    try {
      const uploaded = await uploadFiles(accepted, setProgress);
      onChange([...latest.current, ...uploaded]);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      previews.forEach((item) => item.preview && URL.revokeObjectURL?.(item.preview));
      setPending([]);
      setProgress(null);
    }
  };

  const remove = async (image: UploadedImage) => {
    try {
      await call(api.DELETE("/api/media/remove", { body: { filesPath: [image.path] } }));
      onChange(latest.current.filter((item) => item.path !== image.path));
    } catch {
      /* the client showed the server's sentence; the image stays */
    }
  };

  return (
    <div className="file-upload">
      <span className="form-field__label" id={`${inputId}-label`}>
        {label}
      </span>
      <ul className="file-upload__list" aria-labelledby={`${inputId}-label`}>
        {value.map((image, index) => (
          <li key={image.path} className="file-upload__item">
            <img src={image.url} alt={`${label} ${index + 1} of ${value.length}`} loading="lazy" />
            <span className="file-upload__tools">
              <button type="button" aria-label={`Move photo ${index + 1} earlier`} disabled={index === 0} onClick={() => onChange(move(value, index, -1))}>
                <ArrowUp aria-hidden="true" size={16} />
              </button>
              <button type="button" aria-label={`Move photo ${index + 1} later`} disabled={index === value.length - 1} onClick={() => onChange(move(value, index, 1))}>
                <ArrowDown aria-hidden="true" size={16} />
              </button>
              <button type="button" aria-label={`Remove photo ${index + 1}`} onClick={() => void remove(image)}>
                <Trash2 aria-hidden="true" size={16} />
              </button>
            </span>
          </li>
        ))}
        {pending.map((item) => (
          <li key={item.name} className="file-upload__item file-upload__item--pending">
            {item.preview && <img src={item.preview} alt={`${item.name}, uploading`} />}
          </li>
        ))}
      </ul>
      {progress !== null && (
        <progress className="file-upload__progress" max={100} value={progress} aria-label="Upload progress">
          {progress}%
        </progress>
      )}
      {value.length < max && (
        <label className="file-upload__pick" htmlFor={inputId}>
          <ImagePlus aria-hidden="true" size={18} /> Add images
          <input
            id={inputId}
            type="file"
            className="visually-hidden"
            accept={UPLOAD_TYPES.join(",")}
            multiple
            disabled={progress !== null}
            onChange={(event) => {
              const files = Array.from(event.currentTarget.files ?? []);
              event.currentTarget.value = "";
              void choose(files);
            }}
          />
        </label>
      )}
      {problems.map((problem) => (
        <p key={problem} className="form-field__error" role="alert">
          {problem}
        </p>
      ))}
    </div>
  );
}
