// A conversation's spending limit (its envelope) in the panel: where it comes from (the
// conversation's own, else `modelgate.budget.conversationUsd`), how the user sets it (the quote's
// "Set a Spending Limit…"), and the pause before a request of an answer that would cross it: a card
// in the answer with Stop (the default, and the answer when the card is cancelled), Continue to $X
// (which raises the limit) and, where one costs less, a cheaper channel. The arithmetic is
// src/core/quote/envelope.ts.
import * as vscode from 'vscode';
import type { ChannelChoice } from '../../core/catalogue/modelCatalogue';
import { CHANNELS } from '../../core/client/types';
import { checkEnvelope, parseEnvelope } from '../../core/quote/envelope';
import { formatUsd } from '../../core/spend/cost';
import type { Services } from '../../services/serviceContainer';
import type { Approvals } from '../../agentTools/approvals';
import type { ChatScope } from '../chatScope';
import type { Conversation } from '../conversations/conversationTranscript';

/** The limit that applies to `c` (USD), or undefined: none. */
export function envelopeOf(services: Services, c: Conversation): number | undefined {
  return c.envelope ?? services.settings().conversationUsd;
}

/** Asks for the conversation's limit; an empty answer removes its own (the settings' default applies). True when it changed. */
export async function askEnvelope(scope: ChatScope, c: Conversation): Promise<boolean> {
  const fallback = scope.services.settings().conversationUsd;
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Spending limit of “{0}”', c.title),
    prompt:
      fallback !== undefined
        ? vscode.l10n.t(
            'US dollars this conversation may spend before Modelgate asks (spent so far: {0}). Empty: the default of your settings, {1}.',
            formatUsd(c.totalCost ?? 0),
            formatUsd(fallback),
          )
        : vscode.l10n.t('US dollars this conversation may spend before Modelgate asks (spent so far: {0}). Empty: no limit.', formatUsd(c.totalCost ?? 0)),
    value: c.envelope !== undefined ? String(c.envelope) : '',
    placeHolder: '0.50',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' || parseEnvelope(v) !== undefined ? undefined : vscode.l10n.t('A number of US dollars above 0, for example 0.50.')),
  });
  if (value === undefined) return false;
  const limit = value.trim() === '' ? undefined : parseEnvelope(value);
  if (limit === c.envelope) return false;
  if (limit === undefined) delete c.envelope;
  else c.envelope = limit;
  scope.store().changed(c, { touch: false });
  return true;
}

/** What the next request of an answer may cost on a channel: its high end, and what the answer may take after it. */
export type RequestQuote = (channel: ChannelChoice) => { high: number; expected: number; rest: number } | undefined;

export type GateOutcome = { kind: 'send' } | { kind: 'stop'; note: string } | { kind: 'switch'; channel: ChannelChoice };

/**
 * Before a request of an answer: sends when the conversation's spending (`spent`, this answer's
 * part included) plus the request's quote stays within the limit; otherwise asks, and the answer
 * waits for the user. A request without a price cannot be checked and is sent (the quote already
 * says "no price").
 */
export async function envelopeGate(o: {
  scope: ChatScope;
  approvals: Approvals;
  conversation: Conversation;
  messageId: string;
  channel: ChannelChoice;
  spent: number;
  quote: RequestQuote;
  token: vscode.CancellationToken;
}): Promise<GateOutcome> {
  const { scope, conversation: c } = o;
  for (;;) {
    const limit = envelopeOf(scope.services, c);
    if (limit === undefined) return { kind: 'send' };
    const q = o.quote(o.channel);
    if (!q) return { kind: 'send' };
    const d = checkEnvelope(limit, o.spent, q.high, q.rest);
    if (d.send) return { kind: 'send' };
    // the cheapest other channel whose next request would still fit
    let cheaper: { channel: ChannelChoice; high: number } | undefined;
    for (const ch of CHANNELS) {
      if (ch === o.channel) continue;
      const other = o.quote(ch);
      if (other && other.high < q.high && o.spent + other.high <= limit && (!cheaper || other.high < cheaper.high)) cheaper = { channel: ch, high: other.high };
    }
    const choices = [
      { id: 'stop', label: vscode.l10n.t('Stop') },
      { id: 'continue', label: vscode.l10n.t('Continue to {0}', formatUsd(d.continueTo)) },
      ...(cheaper ? [{ id: 'switch', label: vscode.l10n.t('Switch to {0} (up to {1})', cheaper.channel, formatUsd(cheaper.high)) }] : []),
    ];
    scope.services.log.info(
      `Chat answer paused: the conversation's limit ${d.limit} USD; spent ${d.spent.toFixed(4)}, next request up to ${d.next.toFixed(4)}.`,
    );
    const choice = await o.approvals.ask(
      {
        conversationId: c.id,
        messageId: o.messageId,
        title: vscode.l10n.t('The next request would pass this conversation’s limit of {0}', formatUsd(d.limit)),
        detail: [
          vscode.l10n.t('Spent so far: {0}. The next request may cost up to {1}.', formatUsd(d.spent), formatUsd(d.next)),
          vscode.l10n.t('Nothing more is sent until you choose.'),
        ],
        choices,
        safeChoiceId: 'stop',
      },
      o.token,
    );
    if (choice === 'continue') {
      c.envelope = d.continueTo;
      scope.store().changed(c);
      continue; // checked again: the figures may have moved meanwhile
    }
    if (choice === 'switch' && cheaper) return { kind: 'switch', channel: cheaper.channel };
    return {
      kind: 'stop',
      note: `\n\n_${vscode.l10n.t('Stopped before the next request: it would have passed this conversation’s spending limit of {0}.', formatUsd(d.limit))}_`,
    };
  }
}
