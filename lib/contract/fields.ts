// The field rules the contract shares, in zod/mini: timestamps, path ids, and the query rules of the lists (search
// text, page, page size, sort). The contract's schemas are built from them, and those the browser reads (the
// reports and projects lists' URLs, lib/portal/list-params.ts) are written in zod/mini too, so that the portal's
// pages carry the small zod/mini (about 17 kB gzipped) rather than the full zod. Query values arrive as strings.
import * as z from "zod/mini";

import {
  MAX_PAGE,
  MAX_SEARCH_LENGTH,
  PER_PAGE_CHOICES,
  SORT_DIRECTIONS,
  type PerPage,
  type SortDirection,
} from "./values";

export const oneOf = (values: readonly (string | number)[]) => `must be one of: ${values.join(", ")}`;

export const searchText = z
  .string()
  .check(
    z.maxLength(MAX_SEARCH_LENGTH, `must be at most ${MAX_SEARCH_LENGTH} characters`),
    z.regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters"),
  );

const PER_PAGE_TEXT = PER_PAGE_CHOICES.map(String) as [string, ...string[]];

// Defaults are stated, not applied: a list the reports API pages gets no per_page from Gatehouse unless the caller
// gave one (its own default applies), and Gatehouse's lists fill theirs in where they are read (DEFAULT_PER_PAGE).

/** `per_page` in a query, documented with the list's default page size. */
export const perPage = (fallback: PerPage) =>
  z
    .pipe(z.enum(PER_PAGE_TEXT, { error: oneOf(PER_PAGE_TEXT) }), z.transform(Number))
    .check(z.meta({ description: `Items per page: ${PER_PAGE_CHOICES.join(", ")}`, default: String(fallback) }));

export const page = z
  .pipe(
    z.string().check(z.regex(/^[1-9]\d{0,5}$/, `must be a whole number from 1 to ${MAX_PAGE}`)),
    z.transform(Number),
  )
  .check(z.meta({ description: "Page number, from 1", default: "1" }));

export const sortDirection = (fallback: SortDirection) =>
  z
    .enum(SORT_DIRECTIONS, { error: oneOf(SORT_DIRECTIONS) })
    .check(z.meta({ description: "Sort direction", default: fallback }));

/** One of `values`, refused with the list of them. */
export const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: oneOf(values) });

export const isoTimestamp = z.iso
  .datetime()
  .check(z.describe("ISO 8601 timestamp in UTC, e.g. 2025-01-31T12:00:00.000Z"));

/** Path ids: positive integers small enough to be exact in JavaScript. */
export const positiveIdParam = z.pipe(
  z.string().check(z.regex(/^[1-9]\d{0,14}$/, "must be a positive whole number")),
  z.transform(Number),
);
