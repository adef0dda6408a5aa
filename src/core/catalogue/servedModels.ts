// What the gateway serves. Once its GET /models has answered with a list, a model it does not
// name is not served there: offering it (in the pickers, in VS Code's Manage Language Models)
// only leads to "Model … is not available on the gateway (404)" on the first question. So the
// catalogue is narrowed to the listed models, except the ones the user set (a `modelgate.models`
// entry, the chat or image model setting), which stay, marked `unlisted`; and a model the user
// did not choose falls back to one the gateway serves. Pure.
import { ModelCatalogue, UNKNOWN_CHAT, unknownImageModel, type ModelInfo } from './modelCatalogue';
import type { GatewayModelFacts } from './modelFacts';

/** A model id the user set in a setting, and which kind of model the setting is for. */
export interface UserModel {
  id: string;
  kind: 'chat' | 'image';
}

/**
 * `cat` narrowed to the gateway's list (`listed`: the ids of its /models answer; undefined or
 * empty while unknown, and then `cat` is returned as it is). `overrides`: the raw
 * `modelgate.models` setting; `userModels`: the models the user set as chat and image model.
 */
export function servedOnly(
  cat: ModelCatalogue,
  listed: readonly GatewayModelFacts[] | undefined,
  overrides: unknown,
  userModels: readonly UserModel[],
): ModelCatalogue {
  if (!listed?.length) return cat;
  const served = new Set(listed.map((f) => f.id));
  const named = overrides && typeof overrides === 'object' ? Object.keys(overrides) : [];
  const setByUser = new Set([...named, ...userModels.map((m) => m.id)]);
  const out: ModelInfo[] = [];
  for (const m of cat.entries()) {
    if (served.has(m.id)) out.push(m);
    else if (setByUser.has(m.id)) out.push({ ...m, unlisted: true });
  }
  // The chat or image model the user set, though nothing describes it: shown, marked.
  for (const u of userModels) {
    if (out.some((m) => m.id === u.id)) continue;
    out.push(
      u.kind === 'chat'
        ? { ...UNKNOWN_CHAT, id: u.id, label: u.id, source: 'settings', unlisted: true }
        : { ...unknownImageModel(u.id, 'settings'), unlisted: true },
    );
  }
  return ModelCatalogue.of(out, cat.problems, true);
}

/**
 * The chat model to use when the user set none: `preferred` (the setting's default) while the
 * gateway serves it or its list is unknown, else the first chat model the gateway lists.
 */
export function servedChatModel(cat: ModelCatalogue, preferred: string): string {
  if (!cat.listed || cat.chatModel(preferred)) return preferred;
  return cat.chatModels().find((m) => !m.unlisted)?.id ?? preferred;
}

/** The same for the image model. */
export function servedImageModel(cat: ModelCatalogue, preferred: string): string {
  if (!cat.listed || cat.imageModel(preferred)) return preferred;
  return cat.imageModels().find((m) => !m.unlisted)?.id ?? preferred;
}
