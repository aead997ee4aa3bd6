/**
 * The sidebar lists the user's favorite sites; screens that add or remove one tell it to reload
 * through this window event (favorites change through `/api`, not through a route action).
 */
export const FAVORITES_CHANGED = "cms:favorites-changed";

export function notifyFavoritesChanged(): void {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(FAVORITES_CHANGED));
}
