// CSV export of the spend ledger. Cells are quoted (RFC 4180) and a cell that a spreadsheet
// would run as a formula (starting with = + - @, tab or carriage return) gets a leading
// apostrophe (OWASP "CSV injection"): model ids and extension ids come from outside. A cell that
// starts with any control character, or with invisible or blank characters before one of those
// (a spreadsheet may drop a leading NUL, BOM or space and then see `=`), is treated the same. Pure.
import { localDay, sourceLabel, type SpendState } from './spendBook';

/** = + - @ (and their full-width forms) after any run of control, blank or invisible characters; or a control character first */
const FORMULA_START =
  /^(?:[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]|[\u0000-\u001f\u007f-\u009f])/;

/**
 * A number as a spreadsheet reads it: integers as they are, fractions (costs) to at most 10
 * decimals without float noise (0.0024731999999999996 -> 0.0024732) and never in exponent form.
 */
export function csvNumber(v: number): string {
  if (!Number.isFinite(v) || Number.isInteger(v)) return String(v);
  const fixed = v.toFixed(10).replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}

export function csvCell(v: string | number | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'number') return csvNumber(v);
  const safe = FORMULA_START.test(v) ? `'${v}` : v;
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
  'conversation',
  'conversation_id',
];

/**
 * One line per kept request, then one per day aggregate of older requests; cost empty when
 * unknown. The conversation (title and id) is that of a chat panel request, empty for the others;
 * a title is text the user or a model wrote, so it goes through the same injection rules.
 */
export function spendCsv(state: SpendState): string {
  const lines = [HEADER.join(',')];
  // a conversation under the title it has now (its newest request's), on every line of it
  const titles = new Map<string, string>();
  for (const e of state.entries) if (e.conversation && e.title) titles.set(e.conversation, e.title);
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
        a.conversation ? (titles.get(a.conversation) ?? a.title) : undefined,
        a.conversation,
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
        e.conversation ? (titles.get(e.conversation) ?? e.title) : undefined,
        e.conversation,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
