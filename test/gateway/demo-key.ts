// The simulator's public demo key: a made-up key that only this simulator accepts, printed on
// purpose by `npm run sim` and stored by `npm start`'s demo seeder. Never valid anywhere else.
import { PRICE_CARD } from './prices';
import { DEFAULT_CHANNEL } from './models';

export const DEMO_KEY = 'sk-modelgate-demo';
export const DEMO_BALANCE_USD = 25;

/** `modelgate.models` entries with the simulator's price card (the "demo prices"), chat and image models. */
export function demoModelSettings(): Record<string, unknown> {
  const models: Record<string, unknown> = {};
  for (const [id, byChannel] of Object.entries(PRICE_CARD.chat)) {
    models[id] = { prices: { default: byChannel[DEFAULT_CHANNEL], ...byChannel } };
  }
  for (const [id, prices] of Object.entries(PRICE_CARD.image)) models[id] = { kind: 'image', prices };
  return models;
}
