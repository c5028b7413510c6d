"use client";
// A time zone picked by searching: a text field whose suggestions are every IANA zone the browser knows (a
// <datalist>, which the browser filters as the person types, "Berlin" offering Europe/Berlin). What was typed is
// read with resolveTimeZone when the form is sent, so a city's name alone is enough. The suggestions are the
// browser's own list, filled in after hydration: the server's runtime may know a slightly different one.
import { useId } from "react";

import { timeZoneNames } from "@/lib/contract/time-zone";

import { useIsClient } from "../use-browser";
import { TextField } from "./text-field";

export const TIME_ZONE_NOT_FOUND = "Pick a time zone from the list, or type its city, e.g. Berlin or New York";

export function TimeZoneField({
  name,
  label = "Time zone",
  defaultValue,
  hint,
  error,
}: {
  name: string;
  label?: string;
  defaultValue: string;
  hint?: string;
  error?: string;
}) {
  const listId = useId();
  const isClient = useIsClient();
  return (
    <>
      <TextField
        name={name}
        label={label}
        defaultValue={defaultValue}
        list={listId}
        autoComplete="off"
        spellCheck={false}
        hint={hint ?? "Type a city or a zone's name, e.g. Berlin"}
        required
        error={error}
      />
      <datalist id={listId}>
        {isClient ? timeZoneNames().map((zone) => <option key={zone} value={zone} />) : null}
      </datalist>
    </>
  );
}
