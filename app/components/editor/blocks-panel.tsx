import { useId } from "react";
import { useListing } from "~/components/use-listing";
import { useTranslation } from "react-i18next";
import { apiJson } from "~/lib/api-client";
import type { BlockList, BlockView } from "~/lib/schemas/blocks";
import { usePanelValues } from "./panel-form";
import { SidePanel } from "./side-panel";

/**
 * The Blocks panel: the site's blocks (`GET /sites/{id}/blocks?limit=1000&sortBy=name`), searched
 * by name, each inserted at the caret between `cms-include` comments (EDITING-MODEL.md).
 */
export function BlocksPanel({ open, siteId, onInsert, onClose }: { open: boolean; siteId: string; onInsert(block: BlockView): void; onClose(): void }) {
  const { t } = useTranslation("editor");
  // Loaded afresh at each opening; a failed load shows the empty state.
  const blocks = useListing(open ? siteId : null, () => apiJson<BlockList>(`/sites/${siteId}/blocks?limit=1000&sortBy=name`).then((list) => list.blocks));
  const [search, setSearch] = usePanelValues("", open);
  const searchId = useId();

  const term = search.trim().toLowerCase();
  const shown = (blocks ?? []).filter((block) => !term || block.name.toLowerCase().includes(term) || block.description.toLowerCase().includes(term));
  return (
    <SidePanel open={open} title={t("blocks.title")} size="lg" onClose={onClose}>
      <label className="field" htmlFor={searchId}>
        <span>{t("blocks.search")}</span>
        <input id={searchId} type="search" value={search} data-autofocus onChange={(event) => setSearch(event.target.value)} />
      </label>
      {blocks === null ? (
        <p className="muted" role="status">{t("blocks.loading")}</p>
      ) : shown.length === 0 ? (
        <p className="empty-state" role="status">{blocks.length === 0 ? t("blocks.empty") : t("blocks.noResults")}</p>
      ) : (
        <ul className="block-list">
          {shown.map((block) => (
            <li key={block.id} className="block-list__item">
              <div>
                <strong>{block.name}</strong>
                {block.description && <p className="muted">{block.description}</p>}
              </div>
              <button type="button" className="button button--small button--primary" aria-label={`${t("blocks.insert")}: ${block.name}`} onClick={() => onInsert(block)}>
                {t("blocks.insert")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </SidePanel>
  );
}
