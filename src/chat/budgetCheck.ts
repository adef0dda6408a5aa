// The last pre-send check (beside sendChecks.ts): while a budget is used up, the user is asked
// before the chat sends ("Send Once", "Raise Budget", Cancel). Anything but "Send Once" is a
// refusal: nothing is sent and the typed text goes back into the input.
import type { Services } from '../services';
import { Refusal } from './sendChecks';

export async function budgetRefusal(services: Services): Promise<Refusal | undefined> {
  const r = await services.budget.confirm('chat');
  return r.send ? undefined : new Refusal(r.message, [], 'warning');
}
