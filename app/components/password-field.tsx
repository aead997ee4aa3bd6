import { useId, useState } from "react";
import { useTranslation } from "react-i18next";

/** A new-password field with a show/hide toggle (a real button whose pressed state is announced). */
export function PasswordField({ label, invalid }: { label: string; invalid: boolean }) {
  const { t } = useTranslation("recovery");
  const [shown, setShown] = useState(false);
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password-field">
        <input id={id} name="password" type={shown ? "text" : "password"} autoComplete="new-password" required autoFocus
          aria-describedby={hintId} aria-invalid={invalid || undefined} />
        <button type="button" className="button button--small" aria-pressed={shown} aria-controls={id} onClick={() => setShown((s) => !s)}>
          {t("password.show")}
        </button>
      </div>
      <small id={hintId} className="muted">{t("password.hint")}</small>
    </div>
  );
}
