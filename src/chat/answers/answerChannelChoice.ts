// Which channel answers a chat message: each answer gets a client that
// fails over along `modelgate.fallbackChannels` and measures channel health; when the answer
// ends, its record names the channel that served it (the usage line shows it) and is priced at
// that channel's price, and the first switch in a conversation is noted once, with its cache cost.
import type { ChannelChoice } from '../../core/catalogue/modelCatalogue';
import { switchNote, type FailoverClient } from '../../core/channels/channelFailover';
import { costOf } from '../../core/spend/cost';
import type { GatewayClient, Usage } from '../../core/client/types';
import type { Services } from '../../services/serviceContainer';
import type { AssistantRecord, Conversation } from '../conversations/conversationTranscript';
import { cachedRoute } from './cacheLossWarning';

export class AnswerChannels {
  /** conversations whose switch was already noted (in this window's session) */
  readonly #noted = new Set<string>();

  constructor(private readonly services: Services) {}

  /** The client for one answer. */
  client(client: GatewayClient): FailoverClient {
    return this.services.health.client(client, this.services.settings().fallbackChannels);
  }

  /**
   * After the answer: names the serving channel on the record and reprices it there. Returns
   * the cost at the serving channel's price (or `cost` when nothing moved).
   */
  finish(
    c: Conversation,
    record: AssistantRecord,
    f: FailoverClient,
    usage: Usage | undefined,
    cost: number | undefined,
    note: (text: string) => void,
  ): number | undefined {
    const served: ChannelChoice | undefined = f.served ?? f.switches.at(-1)?.to;
    if (!served || served === record.channel) return cost;
    const asked = record.channel;
    record.channel = served;
    const price = this.services.catalogue().price(record.model, served);
    cost = usage && price ? costOf(usage, price) : undefined;
    if (record.usage) {
      if (cost === undefined) delete record.usage.cost;
      else record.usage.cost = cost;
    }
    if (f.served && !this.#noted.has(c.id)) {
      this.#noted.add(c.id);
      // a cache to speak of only when an earlier answer built one on the route this answer left
      // (finished with usage on this model and the channel asked for); none on a first answer, or
      // after answers that failed or stopped before the gateway reported usage
      const cached = cachedRoute(c, record.id);
      const cacheBuilt = cached?.model === record.model && cached.channel === asked;
      note(switchNote(f.switches, served, usage, price, cacheBuilt));
    }
    return cost;
  }
}
