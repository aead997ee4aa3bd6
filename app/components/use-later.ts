import { useCallback, useEffect, useRef } from "react";

/**
 * `later(fn, ms)`: a timeout that is cleared when the component unmounts, so a status that hides
 * itself after a moment never sets state on a screen that is gone.
 *
 * @example const later = useLater(); later(() => setStatus(null), 1000);
 */
export function useLater(): (fn: () => void, ms: number) => void {
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((id) => clearTimeout(id)), []);
  return useCallback((fn: () => void, ms: number) => {
    timers.current.push(window.setTimeout(fn, ms));
  }, []);
}
