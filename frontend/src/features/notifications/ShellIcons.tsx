/**
 * Icons of the server-rendered shell: each `[data-icon]` slot of the sidebar and the top bar
 * (named by apps/dashboard/navigation.py) gets its lucide icon in place of the letter it shows
 * without JavaScript, so a collapsed sidebar no longer shows four identical letters.
 */
import {
  Building2,
  CalendarDays,
  Circle,
  CreditCard,
  Flag,
  Heart,
  House,
  type LucideIcon,
  Menu,
  MessageSquare,
  Shield,
  Star,
  User,
  Users,
} from "lucide-react";
import { useEffect, useState } from "react";
import { createPortal } from "react-dom";

export const SHELL_ICONS: Record<string, LucideIcon> = {
  home: House,
  user: User,
  star: Star,
  building: Building2,
  calendar: CalendarDays,
  chat: MessageSquare,
  card: CreditCard,
  heart: Heart,
  flag: Flag,
  users: Users,
  shield: Shield,
  menu: Menu,
  dot: Circle,
};

export function ShellIcons({ root = document }: { root?: ParentNode }) {
  const [slots, setSlots] = useState<HTMLElement[]>([]);
  useEffect(() => {
    const found = Array.from(root.querySelectorAll<HTMLElement>("[data-icon]")).filter((slot) => SHELL_ICONS[slot.dataset.icon ?? ""]);
    found.forEach((slot) => {
      slot.textContent = "";
      slot.classList.add("has-icon");
    });
    setSlots(found);
  }, [root]);
  return (
    <>
      {slots.map((slot, index) => {
        const name = slot.dataset.icon ?? "dot";
        const Icon = SHELL_ICONS[name];
        return createPortal(<Icon aria-hidden="true" size={name === "dot" ? 8 : 18} />, slot, `icon-${index}`);
      })}
    </>
  );
}
