import { useEffect, useRef, useState } from "react";

/**
 * Loads a list for `key` (e.g. a folder path) and answers null while it loads. A new key starts a
 * new load; answers for an older key are dropped. `onError` gets a failure, and the list is then empty.
 *
 * @example const files = useListing(`${folder}#${reload}`, () => browse(folder), notifyFailure);
 */
export function useListing<T>(key: string | null, load: () => Promise<T[]>, onError?: (error: unknown) => void): T[] | null {
  const [result, setResult] = useState<{ key: string; items: T[] } | null>(null);
  const latest = useRef({ load, onError });
  useEffect(() => {
    latest.current = { load, onError };
  });
  useEffect(() => {
    if (key === null) return;
    let current = true;
    latest.current.load().then(
      (items) => current && setResult({ key, items }),
      (error: unknown) => {
        if (!current) return;
        setResult({ key, items: [] });
        latest.current.onError?.(error);
      },
    );
    return () => {
      current = false;
    };
  }, [key]);
  return result && result.key === key ? result.items : null;
}
