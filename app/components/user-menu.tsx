import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { UserView as SessionUser } from "~/lib/schemas/session";

/** The spec's user menu: Admin Panel (superuser), Edit Profile, Logout — or Exit Sudo Mode while sudoing. */
export function UserMenu({ user, isSudo }: { user: SessionUser; isSudo: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    root.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open]);

  const onMenuKeyDown = (event: React.KeyboardEvent) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    const items = [...(root.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = event.key === "ArrowDown" ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div className="user-menu" ref={root}>
      <button ref={button} type="button" className="user-menu__button" aria-haspopup="menu" aria-expanded={open}
        aria-controls={menuId} aria-label={t("userMenu.label", { name: user.name })} onClick={() => setOpen((o) => !o)}>
        <span className="avatar" aria-hidden="true">{initials(user.name)}</span>
        <span className="user-menu__name">{user.name}</span>
      </button>
      {open && (
        <div id={menuId} role="menu" className="user-menu__list" onKeyDown={onMenuKeyDown}>
          {user.isSuperuser && !isSudo && (
            <Link role="menuitem" to="/admin" onClick={() => setOpen(false)}>{t("userMenu.adminPanel")}</Link>
          )}
          <Link role="menuitem" to="/profile" onClick={() => setOpen(false)}>{t("userMenu.editProfile")}</Link>
          {isSudo ? (
            <Form method="post" action="/admin/sudo/exit">
              <button role="menuitem" type="submit">{t("userMenu.exitSudo")}</button>
            </Form>
          ) : (
            <Form method="post" action="/logout">
              <button role="menuitem" type="submit">{t("userMenu.logout")}</button>
            </Form>
          )}
        </div>
      )}
    </div>
  );
}

function initials(name: string): string {
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((part) => part[0]?.toUpperCase()).join("") || "?";
}
