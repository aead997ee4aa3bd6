import { useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { GrantableSite, PermissionInput } from "~/lib/schemas/users";
import { ModalDialog } from "./modal-dialog";

/**
 * The site grants of a client user: add a site (one already in the list bounces its card instead),
 * then all pages or selected pages through the page picker; remove a site. Controlled: the form
 * owns the list and sends it as `permissions` (`pages: null` = all pages).
 */
export function PermissionsEditor({ sites, value, onChange, invalid }: {
  sites: GrantableSite[];
  value: PermissionInput[];
  onChange(value: PermissionInput[]): void;
  invalid: string[];
}) {
  const { t } = useTranslation("users");
  const [adding, setAdding] = useState("");
  const [bounce, setBounce] = useState<{ siteId: string; n: number } | null>(null);
  const [picking, setPicking] = useState<string | null>(null);
  const cards = useRef(new Map<string, HTMLElement>());
  const selectId = useId();
  const byId = useMemo(() => new Map(sites.map((s) => [s.id, s])), [sites]);

  const add = () => {
    if (!adding) return;
    if (value.some((p) => p.siteId === adding)) {
      setBounce((b) => ({ siteId: adding, n: (b?.n ?? 0) + 1 }));
      cards.current.get(adding)?.scrollIntoView?.({ block: "nearest" });
      cards.current.get(adding)?.focus();
      return;
    }
    onChange([...value, { siteId: adding, pages: null }]);
    setAdding("");
  };
  const update = (siteId: string, pages: string[] | null) => onChange(value.map((p) => (p.siteId === siteId ? { ...p, pages } : p)));

  return (
    <div className="permissions">
      <div className="permissions__add">
        <label className="field" htmlFor={selectId}>
          <span>{t("permissions.site")}</span>
        </label>
        <div className="button-row">
          <select id={selectId} value={adding} onChange={(event) => setAdding(event.target.value)}>
            <option value="">{t("permissions.chooseSite")}</option>
            {sites.map((site) => <option key={site.id} value={site.id}>{site.name}</option>)}
          </select>
          <button type="button" className="button" onClick={add} disabled={!adding}>{t("permissions.addSite")}</button>
        </div>
      </div>
      {value.length === 0 ? (
        <p className="muted">{t("permissions.none")}</p>
      ) : (
        <ul className="permissions__list">
          {value.map((permission, index) => {
            const site = byId.get(permission.siteId);
            const name = site?.name ?? permission.siteId;
            const bad = invalid.some((f) => f.startsWith(`permissions.${index}.`));
            const bouncing = bounce?.siteId === permission.siteId;
            return (
              <li key={`${permission.siteId}-${bouncing ? bounce.n : 0}`} tabIndex={-1} data-testid="permission-card"
                ref={(el) => { if (el) cards.current.set(permission.siteId, el); else cards.current.delete(permission.siteId); }}
                className={`permission-card${bouncing ? " permission-card--bounce" : ""}${bad ? " permission-card--invalid" : ""}`}
                aria-label={name}>
                <div className="permission-card__head">
                  <strong>{name}</strong>
                  <button type="button" className="button button--small button--danger" onClick={() => onChange(value.filter((p) => p.siteId !== permission.siteId))}
                    aria-label={t("permissions.removeSite", { name })}>
                    {t("permissions.remove")}
                  </button>
                </div>
                <fieldset className="permission-card__scope">
                  <legend className="visually-hidden">{t("permissions.scope", { name })}</legend>
                  <label className="checkbox">
                    <input type="radio" name={`scope-${permission.siteId}`} checked={permission.pages === null} onChange={() => update(permission.siteId, null)} />
                    <span>{t("permissions.allPages")}</span>
                  </label>
                  <label className="checkbox">
                    <input type="radio" name={`scope-${permission.siteId}`} checked={permission.pages !== null}
                      onChange={() => {
                        update(permission.siteId, []);
                        setPicking(permission.siteId);
                      }} />
                    <span>{t("permissions.selectedPages")}</span>
                  </label>
                </fieldset>
                {permission.pages !== null && (
                  <p className="permission-card__pages">
                    <span>{t("permissions.pagesSelected", { count: permission.pages.length })}</span>{" "}
                    <button type="button" className="button button--small" onClick={() => setPicking(permission.siteId)}>{t("permissions.choosePages")}</button>
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {picking && (
        <PagePicker site={byId.get(picking)} selected={value.find((p) => p.siteId === picking)?.pages ?? []}
          onCancel={() => setPicking(null)}
          onDone={(pages) => {
            update(picking, pages);
            setPicking(null);
          }} />
      )}
    </div>
  );
}

function PagePicker({ site, selected, onCancel, onDone }: { site: GrantableSite | undefined; selected: string[]; onCancel(): void; onDone(pages: string[]): void }) {
  const { t } = useTranslation("users");
  const [chosen, setChosen] = useState(() => new Set(selected));
  const [search, setSearch] = useState("");
  const pages = (site?.pages ?? []).filter((p) => !search.trim() || `${p.name} ${p.path}`.toLowerCase().includes(search.trim().toLowerCase()));
  const toggle = (id: string) => setChosen((all) => {
    const next = new Set(all);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
  return (
    <ModalDialog open title={t("permissions.pickerTitle", { name: site?.name ?? "" })} onClose={onCancel} className="modal--picker">
      <label className="field">
        <span>{t("permissions.searchPages")}</span>
        <input type="search" value={search} data-autofocus onChange={(event) => setSearch(event.target.value)} />
      </label>
      {pages.length === 0 ? (
        <p className="muted">{t("list.noResults")}</p>
      ) : (
        <ul className="page-picker">
          {pages.map((page) => (
            <li key={page.id}>
              <label className="checkbox">
                <input type="checkbox" checked={chosen.has(page.id)} onChange={() => toggle(page.id)} />
                <span>{page.name} <small className="muted">{page.path}</small></span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="button-row modal__actions">
        <button type="button" className="button" onClick={onCancel}>{t("actions.cancel")}</button>
        <button type="button" className="button button--primary" onClick={() => onDone((site?.pages ?? []).map((p) => p.id).filter((id) => chosen.has(id)))}>
          {t("permissions.done")}
        </button>
      </div>
    </ModalDialog>
  );
}
