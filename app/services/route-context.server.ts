import { data, type RouterContextProvider } from "react-router";
import { AppError, errorBody } from "~/lib/errors";
import { serviceContextKey } from "~/middleware/actor";
import type { ServiceContext } from "./context.server";

/** The service context the root middleware built for this request. */
export function requireRouteContext(context: Readonly<RouterContextProvider>): ServiceContext {
  return context.get(serviceContextKey);
}

/**
 * Runs a domain operation for a loader and turns an AppError into the error page of its status
 * (the React Router half of "one error mapper per transport").
 *
 * @example return runOperation(() => listSites(ctx, { limit: 50, offset: 0 }));
 */
export async function runOperation<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof AppError) throw data(errorBody(error.code, error.invalid), { status: error.status });
    throw error;
  }
}
