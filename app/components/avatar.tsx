import { useEffect, useState } from "react";

/** Gravatar's default size in the product (spec: Gravatar 512 as the default picture). */
export const GRAVATAR_SIZE = 512;

const gravatars = new Map<string, Promise<string | null>>();

/**
 * The Gravatar of an address through `GET /api/utilities/gravatar?verify=true`, once per address
 * per page load: null when it has none (or Gravatar cannot be reached), so the initials show
 * instead of a broken picture.
 */
function gravatarOf(email: string): Promise<string | null> {
  const key = email.trim().toLowerCase();
  let found = gravatars.get(key);
  if (!found) {
    const query = new URLSearchParams({ email: key, size: String(GRAVATAR_SIZE), verify: "true" });
    found = fetch(`/api/utilities/gravatar?${query}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? (response.json() as Promise<{ url: string | null }>) : { url: null }))
      .then((body) => body.url)
      .catch(() => null);
    gravatars.set(key, found);
  }
  return found;
}

export function initials(name: string): string {
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((part) => part[0]!.toUpperCase()).join("") || "?";
}

/**
 * A person's picture: the uploaded avatar, else their Gravatar, else their initials. Decorative
 * (the name is always next to it), so it is hidden from assistive technology.
 */
export function Avatar({ user, size = 40, preview }: { user: { name: string; email: string; avatar: string | null }; size?: number; preview?: string | null }) {
  const [gravatar, setGravatar] = useState<string | null>(null);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const src = preview ?? user.avatar;
  useEffect(() => {
    let live = true;
    if (!src && user.email) void gravatarOf(user.email).then((url) => live && setGravatar(url));
    return () => {
      live = false;
    };
  }, [src, user.email]);
  const shown = src ?? gravatar;
  const failed = shown !== null && failedSrc === shown;
  const style = { width: size, height: size, fontSize: Math.max(12, Math.round(size / 2.6)) };
  if (shown && !failed) {
    return <img className="avatar avatar--image" src={shown} alt="" aria-hidden="true" width={size} height={size} style={style} onError={() => setFailedSrc(shown)} />;
  }
  return <span className="avatar" aria-hidden="true" style={style}>{initials(user.name)}</span>;
}
