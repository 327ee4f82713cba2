/** Milliseconds in the units the configuration gives durations in: one conversion each. */
export const SECOND_MS = 1000;
export const HOUR_MS = 3600 * SECOND_MS;
export const DAY_MS = 24 * HOUR_MS;
