/** The sidebar table exported from apps/dashboard/navigation.py, read the same way as the server. */
import table from "./navigation.json";

export type Role = "admin" | "moderator" | "host" | "subHost" | "renter";

interface TableEntry {
  kind: "entry";
  label: string;
  route: string;
  href: string;
  roles: string[] | null;
  counter: string | null;
}
interface TableGroup {
  kind: "group";
  key: string;
  label: string;
  labels: Record<string, string>;
  roles: string[] | null;
  children: Omit<TableEntry, "kind">[];
}

export interface SidebarItem {
  label: string;
  href: string;
  counter: string | null;
  children?: SidebarItem[];
}

export const ROLES = table.roles as Role[];

function sees(roles: string[] | null, role: string): boolean {
  return roles === null || roles.includes(role);
}

/** What a role's sidebar shows, in order (groups with their visible children). */
export function sidebarFor(role: string): SidebarItem[] {
  const hidden = (table.hiddenGroups as Record<string, string[]>)[role] ?? [];
  const items: SidebarItem[] = [];
  for (const node of table.sidebar as (TableEntry | TableGroup)[]) {
    if (node.kind === "entry") {
      if (sees(node.roles, role)) items.push({ label: node.label, href: node.href, counter: node.counter });
      continue;
    }
    if (!sees(node.roles, role) || hidden.includes(node.key)) continue;
    const children = node.children
      .filter((child) => sees(child.roles, role))
      .map((child) => ({ label: child.label, href: child.href, counter: child.counter }));
    if (children.length) items.push({ label: node.labels[role] ?? node.label, href: "", counter: null, children });
  }
  return items;
}

/** Every link a role's sidebar shows, flattened. */
export function sidebarHrefs(role: string): string[] {
  return sidebarFor(role).flatMap((item) => (item.children ? item.children.map((child) => child.href) : [item.href]));
}

/** May `role` open the route named `name`? (null roles: any signed-in user) */
export function mayOpen(role: string, name: string): boolean {
  const route = table.routes.find((candidate) => candidate.name === name);
  return Boolean(route) && sees(route!.roles, role);
}
