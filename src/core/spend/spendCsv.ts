// CSV export of the spend ledger. Cells are quoted (RFC 4180) and a cell that a spreadsheet
// would run as a formula (starting with = + - @, tab or carriage return) gets a leading
// apostrophe (OWASP "CSV injection"): model ids and extension ids come from outside. Pure.
import { localDay, sourceLabel, type SpendState } from './spendBook';

export function csvCell(v: string | number | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'number') return String(v);
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n']/.test(safe) || safe !== v ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const HEADER = [
  'time',
  'day',
  'source',
  'requests',
  'model',
  'channel',
  'prompt_tokens',
  'cached_tokens',
  'completion_tokens',
  'images',
  'cost_usd',
  'unpriced_requests',
];

/** One line per kept request, then one per day aggregate of older requests; cost empty when unknown. */
export function spendCsv(state: SpendState): string {
  const lines = [HEADER.join(',')];
  for (const a of [...state.days].sort((x, y) => x.day.localeCompare(y.day))) {
    lines.push(
      [
        '',
        a.day,
        sourceLabel(a.source, a.requester),
        a.requests,
        a.model,
        a.channel,
        a.promptTokens,
        a.cachedTokens,
        a.completionTokens,
        a.images,
        a.requests > a.unpriced ? a.cost : undefined,
        a.unpriced,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  for (const e of state.entries) {
    const d = new Date(e.at);
    lines.push(
      [
        d.toISOString(),
        localDay(e.at),
        sourceLabel(e.source, e.requester),
        1,
        e.model,
        e.channel,
        e.promptTokens,
        e.cachedTokens,
        e.completionTokens,
        e.images,
        e.cost,
        e.cost === undefined ? 1 : 0,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
