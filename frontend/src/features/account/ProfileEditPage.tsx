/** /profile/edit: the editable fields of spec 3, the avatar with a crop, the spec's phone field. */
import { zodResolver } from "@hookform/resolvers/zod";
import { CountryField } from "../../shared/forms/CountryField";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { type Control, useController, useForm } from "react-hook-form";
import { api, call, type Schemas } from "../../shared/api/client";
import { upload } from "../../shared/api/upload";
import { describedBy, FieldShell, visibleError } from "../../shared/forms/Field";
import { PhoneField } from "../../shared/forms/PhoneField";
import { SubmitButton } from "../../shared/forms/SubmitButton";
import { TextField } from "../../shared/forms/TextField";
import { toast } from "../../shared/ui/toast";
import "../../shared/ui/css/dashboard.css";
import "./people.css";
import { Avatar } from "./Avatar";
import { AvatarCropper } from "./AvatarCropper";
import { applyServerErrors, SOCIAL_LABELS, socialLinks, type UserDetail, updateShellIdentity } from "./people";
import { accountKey } from "./queries";
import { type ProfileValues, profileSchema } from "./schemas";
import { WithWholeAccount } from "./WholeAccount";

const FIELDS = [
  "firstName",
  "lastName",
  "userName",
  "gender",
  "bio",
  "nativeLanguage",
  "city",
  "state",
  "country",
  "emergencyContactname",
  "emergencyRelationship",
  "emergencyEmail",
  "emergencyPhone",
  ...SOCIAL_LABELS,
] as const;

export function profileValues(user: UserDetail): ProfileValues {
  const links = socialLinks(user.socialMediaLinks);
  const link = (label: string) => links.find((item) => item.label === label)?.link ?? "";
  return {
    firstName: user.firstName ?? "",
    lastName: user.lastName ?? "",
    userName: user.userName ?? "",
    gender: (user.gender as ProfileValues["gender"]) ?? "",
    bio: user.bio ?? "",
    nativeLanguage: user.nativeLanguage ?? "",
    city: user.city ?? "",
    state: user.state ?? "",
    country: user.country ?? "",
    emergencyContactname: user.emergencyContactname ?? "",
    emergencyRelationship: user.emergencyRelationship ?? "",
    emergencyEmail: user.emergencyEmail ?? "",
    emergencyPhone: user.emergencyPhone ?? "",
    Facebook: link("Facebook"),
    Twitter: link("Twitter"),
    Pintrest: link("Pintrest"),
    Instagram: link("Instagram"),
  };
}

/** The JSON the profile API takes from the form's values. */
export function profilePayload(values: ProfileValues) {
  const { Facebook, Twitter, Pintrest, Instagram, ...rest } = values;
  const links = { Facebook, Twitter, Pintrest, Instagram };
  return {
    ...rest,
    socialMediaLinks: SOCIAL_LABELS.filter((label) => links[label].trim()).map((label) => ({ label, link: links[label].trim() })),
  };
}

function TextArea({ control, name, label, max }: { control: Control<ProfileValues>; name: "bio"; label: string; max: number }) {
  const id = `field-${useId()}`;
  const { field, fieldState, formState } = useController({ control, name });
  const error = visibleError(fieldState, formState.isSubmitted);
  const hint = `${(field.value ?? "").length}/${max}`;
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        name={field.name}
        ref={field.ref}
        rows={5}
        className="form-field__input"
        value={field.value ?? ""}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
    </FieldShell>
  );
}

function GenderSelect({ control }: { control: Control<ProfileValues> }) {
  const id = `field-${useId()}`;
  const { field, fieldState, formState } = useController({ control, name: "gender" });
  const error = visibleError(fieldState, formState.isSubmitted);
  return (
    <FieldShell id={id} label="Gender" error={error}>
      <select id={id} name={field.name} ref={field.ref} className="form-field__input" value={field.value} onChange={field.onChange} onBlur={field.onBlur}>
        <option value="">Prefer not to say</option>
        <option value="male">Male</option>
        <option value="female">Female</option>
        <option value="other">Other</option>
      </select>
    </FieldShell>
  );
}

function EditForm({ user }: { user: UserDetail }) {
  const queries = useQueryClient();
  const [avatar, setAvatar] = useState(user.avatar);
  const [cropping, setCropping] = useState<File | null>(null);
  const [avatarBusy, setAvatarBusy] = useState(false);
  const [formError, setFormError] = useState("");
  const form = useForm<ProfileValues>({ resolver: zodResolver(profileSchema), defaultValues: profileValues(user), mode: "onTouched" });
  const { control, handleSubmit, setError, formState, reset } = form;

  useEffect(() => reset(profileValues(user)), [user, reset]);

  /** The profile as saved (the account's own fields); the rest of the whole account is unchanged. */
  const saved = (next: Schemas["User"]) => {
    queries.setQueryData(accountKey(user._id), { user: { ...user, ...next }, message: "" });
    updateShellIdentity(next);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError("");
    try {
      const answer = await call(
        api.PUT("/api/user/profile/{user_id}", { params: { path: { user_id: user._id } }, body: profilePayload(values) }),
        { silent: true },
      );
      saved(answer.data);
      toast.success(answer.message || "Profile updated successfully.");
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS as unknown as string[], { socialMediaLinks: "Facebook" });
      // Field messages show under their fields; anything else above the button.
      if (rest.length) setFormError(rest[0]);
      toast.error(rest[0] ?? (error as Error).message);
    }
  });

  const uploadAvatar = async (blob: Blob) => {
    setCropping(null);
    setAvatarBusy(true);
    const body = new FormData();
    body.append("avatar", new File([blob], "avatar.jpg", { type: "image/jpeg" }));
    try {
      const answer = await upload<Schemas["ProfileUpdateResponse"]>(`/api/user/profile/${user._id}`, body, { method: "PUT" });
      setAvatar(answer.data.avatar);
      saved({ ...answer.data });
      toast.success("Avatar updated successfully.");
    } catch {
      /* the client showed the server's sentence */
    } finally {
      setAvatarBusy(false);
    }
  };

  return (
    <>
      <div className="dash-title">
        <h1>Edit Profile</h1>
        <a className="button button--ghost" href="/profile">
          Back to profile
        </a>
      </div>
      <section className="dash-card people-card" aria-label="Avatar">
        <div className="people-head">
          <Avatar src={avatar} />
          <div>
            <label className="button button--ghost" htmlFor="avatar-file">
              {avatarBusy ? "Saving…" : "Change photo"}
            </label>
            <input
              id="avatar-file"
              className="visually-hidden"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                event.currentTarget.value = "";
                if (file) setCropping(file);
              }}
            />
            <p className="form-field__hint">JPEG, PNG or WebP. You choose the square to show.</p>
          </div>
        </div>
      </section>
      <form className="dash-card people-card people-form" onSubmit={onSubmit} noValidate aria-label="Profile">
        <h2>About you</h2>
        <div className="people-grid">
          <TextField control={control} name="firstName" label="First name" autoComplete="given-name" />
          <TextField control={control} name="lastName" label="Last name" autoComplete="family-name" />
          <TextField control={control} name="userName" label="User name" autoComplete="username" hint="Your public host page is /host/ followed by it." />
          <GenderSelect control={control} />
          <TextField control={control} name="nativeLanguage" label="Native language" />
          <TextField control={control} name="city" label="City" autoComplete="address-level2" />
          <TextField control={control} name="state" label="State" autoComplete="address-level1" />
          <CountryField control={control} name="country" />
        </div>
        <TextArea control={control} name="bio" label="Bio" max={2000} />
        <h2>Emergency contact</h2>
        <div className="people-grid">
          <TextField control={control} name="emergencyContactname" label="Name" />
          <TextField control={control} name="emergencyRelationship" label="Relationship" />
          <TextField control={control} name="emergencyEmail" label="Email" kind="email" />
          <PhoneField control={control} name="emergencyPhone" label="Phone" />
        </div>
        <h2>Social links</h2>
        <div className="people-grid">
          {SOCIAL_LABELS.map((label) => (
            <TextField key={label} control={control} name={label} label={label} placeholder="https://" inputMode="url" />
          ))}
        </div>
        {formError && (
          <p className="form-field__error" role="alert">
            {formError}
          </p>
        )}
        <div className="people-actions">
          <SubmitButton loading={formState.isSubmitting} className="button">
            Save changes
          </SubmitButton>
        </div>
      </form>
      {cropping && <AvatarCropper file={cropping} onDone={(blob) => void uploadAvatar(blob)} onCancel={() => setCropping(null)} />}
    </>
  );
}

export function ProfileEditPage({ userId }: { userId: string }) {
  return <WithWholeAccount userId={userId}>{(user) => <EditForm user={user} />}</WithWholeAccount>;
}
