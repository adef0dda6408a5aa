// The checks before a request goes out (the pre-send checks): a request that cannot succeed is
// refused before anything is sent, with a message that says what to do and the text put back.
import { l10n } from '../../core/l10n';
import { hasImages } from '../../core/prompt/promptLayout';
import { estimateRequestTokens, outputReserve } from '../../core/prompt/tokens';
import type { ChatMessage } from '../../core/client/types';
import type { ErrorAction, NoticeTopic } from '../protocol';
import { describeError } from '../../shared/userErrors';
import type { ChatScope } from '../chatScope';
import type { Services } from '../../services/serviceContainer';
import type { NoticeLevel } from '../view/chatOutput';
import type { Conversation } from '../conversations/conversationTranscript';
import { requestMessages } from '../context/turnContext';
import { noImagesMessage } from '../context/chatAttachments';

/** What a refused send tells the user (nothing was sent, the text goes back to the input). */
export class Refusal {
  constructor(
    readonly message: string,
    readonly actions: ErrorAction[] = [],
    readonly level: NoticeLevel = 'warning',
    /** the condition that refused it (its notice leaves once that is fixed) */
    readonly topic?: NoticeTopic,
    /** the request does not fit the model's window (compacting the conversation may make it fit) */
    readonly noRoom = false,
  ) {}
}

/** Everything that must hold before `history` is sent in `c`; a Refusal when something does not. */
export async function checkSendable(scope: ChatScope, c: Conversation, history: ChatMessage[]): Promise<Refusal | undefined> {
  const s = scope.services.settings();
  const info = scope.modelInfo(s.chatModel);
  const tools = scope.toolsFor(info, c.id).tools;
  // the system message as the answer sends it: the prompt for these tools and the rules files in use
  const messages = requestMessages(c, tools, scope.rules.inUse(c.id), history);
  if (!info.imageInput && hasImages(messages)) {
    return new Refusal(noImagesMessage(scope, info.id, l10n.t('this conversation has images')), ['pickModel'], 'warning', 'model');
  }
  try {
    scope.services.gateway.client();
  } catch (err) {
    const e = describeError(err);
    return new Refusal(e.message, e.actions, 'error');
  }
  const key = await scope.services.gateway.ensureKey();
  await scope.refreshKey();
  if (!key) return new Refusal(l10n.t('Nothing was sent: Modelgate needs an API key for the gateway.'), ['setKey'], 'error');
  const tokens = estimateRequestTokens(messages, tools);
  const reserve = outputReserve(info.contextWindow, info.maxOutput);
  if (tokens > info.contextWindow - reserve) {
    return new Refusal(
      l10n.t(
        'Nothing was sent: this request is about {0} tokens, and {1} takes {2} ({3} kept free for the answer). Remove attached files or start a new chat.',
        fmt(tokens),
        info.id,
        fmt(info.contextWindow),
        fmt(reserve),
      ),
      ['pickModel'],
      'warning',
      'model',
      true,
    );
  }
  return budgetRefusal(scope.services, { model: info.id, priced: !!scope.services.catalogue().price(info.id, s.channel) });
}

/** Says why nothing was sent, as a notice of conversation `c`. */
export function refuse(scope: ChatScope, c: Conversation, r: Refusal): void {
  scope.out.notice(r.level, r.message, r.actions, { conversation: c, ...(r.topic ? { topic: r.topic } : {}) });
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

// The last pre-send check: while a budget is used up, or while one is set and the model has no
// known price, the user is asked before the chat sends ("Send Once", "Raise Budget" or "Set a
// Price", Cancel). Anything but "Send Once" is a refusal: nothing is sent and the typed text goes
// back into the input.
export async function budgetRefusal(services: Services, request?: { model: string; priced: boolean }): Promise<Refusal | undefined> {
  const r = await services.budget.confirm('chat', request);
  return r.send ? undefined : new Refusal(r.message, [], 'warning', 'budget');
}

/** Whether a send of `model` on `channel` would still be stopped by a budget (used up, or set while the model has no price). */
export function budgetStillRefuses(services: Services, model: string, channel: Parameters<ReturnType<Services['catalogue']>['price']>[1]): boolean {
  if (services.budget.exhausted()) return true;
  return services.budget.statuses().length > 0 && !services.catalogue().price(model, channel);
}
