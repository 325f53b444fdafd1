import { useState } from "react";
import { DEFAULT_AVATAR } from "./people";

/** A user's picture; the default avatar when there is none or it fails to load (spec 3). */
export function Avatar({ src, size = 96, alt = "" }: { src?: string | null; size?: number; alt?: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <img
      className="people-avatar"
      src={!src || failed ? DEFAULT_AVATAR : src}
      alt={alt}
      width={size}
      height={size}
      onError={() => setFailed(true)}
    />
  );
}

/** Text cut at `max` characters with a Read More / Read Less toggle (spec 9: bio 300). */
export function ReadMore({ text, max }: { text: string; max: number }) {
  const [open, setOpen] = useState(false);
  if (text.length <= max) return <p className="people-bio">{text}</p>;
  return (
    <p className="people-bio">
      {open ? text : `${text.slice(0, max)}...`}{" "}
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
        {open ? "Read Less" : "Read More"}
      </button>
    </p>
  );
}
