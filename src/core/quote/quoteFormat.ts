// Figures of a quote as the composer shows them at 290 px: "≈ $0.012–0.019". Each end keeps two
// significant digits (a quote is an estimate; more digits would claim a precision it lacks), and a
// range whose ends read the same is one figure. Pure, no words (the panel translates those).

/** "0.012", "0.00041", "0.50", "1.25", "12" */
export function quoteAmount(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return '0';
  if (usd >= 10) return usd.toFixed(0);
  if (usd >= 1) return usd.toFixed(2);
  const decimals = Math.min(8, Math.max(2, 1 - Math.floor(Math.log10(usd))));
  const text = usd.toFixed(decimals);
  // 0.0995 with 3 decimals reads 0.100: one digit fewer keeps two significant digits
  return /^0\.0*10+$/.test(text) && decimals > 2 ? usd.toFixed(decimals - 1) : text;
}

/** "$0.012–0.019", or "$0.012" when both ends read the same. */
export function quoteRange(low: number, high: number): string {
  const a = quoteAmount(Math.min(low, high));
  const b = quoteAmount(Math.max(low, high));
  return a === b ? `$${a}` : `$${a}–${b}`;
}

/** A share as a whole percent: 0.834 -> "83%"; a share above 0 never reads "0%" and below 1 never "100%". */
export function sharePercent(share: number): string {
  if (!(share > 0)) return '0%';
  if (share >= 1) return '100%';
  return `${Math.min(99, Math.max(1, Math.round(share * 100)))}%`;
}
