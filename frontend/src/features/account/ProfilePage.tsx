/** /profile (Information): the user's own fields of spec 3, verification status and documents. */
import type { ReactNode } from "react";
import { Badge } from "../../shared/ui/Badge";
import "../../shared/ui/css/dashboard.css";
import "./people.css";
import { Avatar, ReadMore } from "./Avatar";
import { BIO_MAX, displayName, displayPhone, roleLabel, socialLinks, type UserDetail, verificationDocs } from "./people";
import { ProfileEditPage } from "./ProfileEditPage";
import { VerificationDocs } from "./VerificationDocs";
import { WithWholeAccount, type WholeAccountUser } from "./WholeAccount";
import type { IslandProps } from "../../shared/ui/mountIsland";

export type ProfileProps = Pick<IslandProps<"DashboardProfile">, "userId" | "view">;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="people-row">
      <dt>{label}</dt>
      <dd>{children || <span className="muted">Not set</span>}</dd>
    </div>
  );
}

export function verificationWord(user: UserDetail): string {
  if (user.isVerified) return "verified";
  return (user.verificationStatus as string | null) ?? "unverified";
}

/** The account's fields as a definition list, shared with view-user. */
export function ProfileDetails({ user }: { user: UserDetail }) {
  const links = socialLinks(user.socialMediaLinks);
  const location = [user.city, user.state, user.country].filter(Boolean).join(", ");
  return (
    <dl className="people-details">
      <Row label="First name">{user.firstName}</Row>
      <Row label="Last name">{user.lastName}</Row>
      <Row label="User name">{user.userName}</Row>
      <Row label="Email">{user.email}</Row>
      <Row label="Gender">{user.gender ? user.gender.charAt(0).toUpperCase() + user.gender.slice(1) : ""}</Row>
      <Row label="Location">{location}</Row>
      <Row label="Native language">{user.nativeLanguage}</Row>
      <Row label="Social links">
        {links.length > 0 && (
          <ul className="people-links">
            {links.map((link) => (
              <li key={link.label}>
                <a href={link.link} target="_blank" rel="noopener noreferrer nofollow">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        )}
      </Row>
      <Row label="Emergency contact">
        {(user.emergencyContactname || user.emergencyPhone || user.emergencyEmail) && (
          <span>
            {[user.emergencyContactname, user.emergencyRelationship && `(${user.emergencyRelationship})`].filter(Boolean).join(" ")}
            {user.emergencyPhone && <span className="people-block">{displayPhone(user.emergencyPhone)}</span>}
            {user.emergencyEmail && <span className="people-block">{user.emergencyEmail}</span>}
          </span>
        )}
      </Row>
    </dl>
  );
}

function Profile({ user }: { user: WholeAccountUser }) {
  return (
    <>
      <div className="dash-title">
        <h1>Information</h1>
        <a className="button" href="/profile/edit">
          Edit Profile
        </a>
      </div>
      <section className="dash-card people-card" aria-labelledby="profile-name">
        <div className="people-head">
          <Avatar src={user.avatar} />
          <div>
            <h2 id="profile-name">{displayName(user)}</h2>
            <p className="muted">
              {roleLabel(user.role)}
              {user.userName && ` · @${user.userName}`}
            </p>
            {(user.verifiesIdentity || user.isVerified) && (
              <p data-testid="verification-status">
                Identity: <Badge status={verificationWord(user)} />
              </p>
            )}
            {user.publicPage && (
              <p>
                <a href={user.publicPage}>Public host page</a>
              </p>
            )}
          </div>
        </div>
        {user.bio && <ReadMore text={user.bio} max={BIO_MAX} />}
        <ProfileDetails user={user} />
      </section>
      {user.verifiesIdentity && (
        <section className="dash-card people-card" aria-labelledby="documents-title">
          <h2 id="documents-title">Identity verification</h2>
          <p className="muted">
            {user.isVerified
              ? "Your identity is verified."
              : "Upload an identity document (passport, driving licence or business registration). Our staff review it and you are notified of the decision."}
          </p>
          <VerificationDocs userId={user._id} docs={verificationDocs(user.verificationDocs)} canUpload />
        </section>
      )}
    </>
  );
}

export function ProfileScreen({ userId, view }: ProfileProps) {
  return view === "edit" ? <ProfileEditPage userId={userId} /> : <WithWholeAccount userId={userId}>{(user) => <Profile user={user} />}</WithWholeAccount>;
}
