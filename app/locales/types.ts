/**
 * The shape a translation must have: the same keys as the English source, every leaf a string.
 * `satisfies Messages<typeof en>` makes a missing or an extra key in German or French fail typecheck.
 */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };
