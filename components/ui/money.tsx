"use client";
// An amount of money in the reader's locale, e.g. "$1,234.50" or "1.234,50 €". Like <LocalTime>, the server
// renders a stable plain form ("1234.50 USD") and the browser swaps in its own right after hydration.
import { formatMoney, formatMoneyPlain } from "../format";
import { useIsClient } from "../use-browser";

export interface MoneyProps {
  amount: number;
  /** ISO 4217 code, e.g. "USD". */
  currency: string;
  className?: string;
}

export function Money({ amount, currency, className }: MoneyProps) {
  const isClient = useIsClient();
  return (
    <span className={["tabular-nums", className].filter(Boolean).join(" ")}>
      {isClient ? formatMoney(amount, currency) : formatMoneyPlain(amount, currency)}
    </span>
  );
}
