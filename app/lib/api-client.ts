import { parseErrorBody } from "./errors";

/** A failed `/api` call: the catalogue code (null when unknown), the invalid fields and the status. */
export class ApiFailure extends Error {
  constructor(readonly code: string | null, readonly invalid: string[], readonly status: number) {
    super(code ?? `status ${status}`);
    this.name = "ApiFailure";
  }
}

/** The code a caught failure carries, for `notifyError` (anything else maps to the generic message). */
export function failureCode(error: unknown): string | null {
  return error instanceof ApiFailure ? error.code : null;
}

/**
 * Calls the JSON API under /api from the browser: a JSON body when given, the JSON answer on
 * success, else throws an ApiFailure with the answer's code and invalid fields.
 *
 * @example const { pages } = await apiJson<PageList>(`/sites/${id}/pages?limit=50`);
 * @example await apiJson(`/sites/${id}`, { method: "DELETE" });
 */
export async function apiJson<T = unknown>(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<T> {
  const isForm = typeof FormData !== "undefined" && init.body instanceof FormData;
  const response = await fetch(`/api${path}`, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    signal: init.signal,
    headers: { ...(init.body === undefined || isForm ? {} : { "Content-Type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const { code, invalid } = parseErrorBody(body);
    throw new ApiFailure(code, invalid, response.status);
  }
  return body as T;
}
