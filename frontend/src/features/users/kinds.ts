/** The four people lists of the back office and what each one calls (routes of spec 2.3). */
export type Kind = "hosts" | "renters" | "subHosts" | "moderators";

export interface KindInfo {
  title: string;
  path: string;
  noun: string;
  addHref?: string;
  addLabel?: string;
  listHref: string;
}

export const KINDS: Record<Kind, KindInfo> = {
  hosts: { title: "Hosts", path: "/api/user/hosts", noun: "host", addHref: "/addhost", addLabel: "Add Host", listHref: "/hosts" },
  renters: { title: "Renters", path: "/api/user/renters", noun: "renter", listHref: "/renters" },
  subHosts: {
    title: "Sub Hosts",
    path: "/api/user/sub-hosts",
   
    noun: "sub-host",
    addHref: "/add-subhost",
    addLabel: "Add Sub Host",
    listHref: "/sub-hosts",
  },
  moderators: {
    title: "Moderators",
    path: "/api/user/moderators",
   
    noun: "moderator",
    addHref: "/add-moderator",
    addLabel: "Add Moderator",
    listHref: "/moderators",
  },
};

export const STATUS_TABS = [
  { value: "active", label: "Active" },
  { value: "suspended", label: "Suspended" },
  { value: "deleted", label: "Deleted" },
  { value: "unverified", label: "Unverified" },
];

export type Change = "suspend" | "restore" | "delete";
export const CHANGE_STATUS: Record<Change, "suspended" | "active" | "deleted"> = { suspend: "suspended", restore: "active", delete: "deleted" };
export const CHANGE_WORDS: Record<Change, { title: string; verb: string; confirm: string }> = {
  suspend: { title: "Suspend account", verb: "Suspend", confirm: "They are signed out at once and cannot log in until restored." },
  restore: { title: "Restore account", verb: "Restore", confirm: "They can log in again." },
  delete: { title: "Delete account", verb: "Delete", confirm: "They are signed out and the account is closed; staff can restore it later." },
};
