// The questions of the interactive command: the prompt, then only what the chosen model
// supports (read from the catalogue through optionSpace): the model when there is more than
// one, the size when there is a choice, the number of images when maxN > 1, quality and style
// where the model has them. Each list starts on the last choice made with that model. Every row
// that changes what the request costs says what it costs (./imagePriceText.ts), and the last step
// says the whole request's price in its title, so nothing is spent on a price never shown. When
// no option is asked (the model has one size, one image per request, no quality or style), one
// question shows the request and its price instead, and its default answer spends nothing.
// Escape at any step returns undefined: the caller stops silently.
import * as vscode from 'vscode';
import type { ImageModelInfo, ModelCatalogue } from '../core/catalogue/modelCatalogue';
import { defaultChoices, optionSpace, SIZE_NOTES, type ImageChoices, type ImageQuality, type ImageStyle } from './imageOptions';
import type { LastImageChoices } from './lastChoices';
import { choicePriceText, modelPriceText, requestCost, requestPriceText } from './imagePriceText';

export interface ImageAnswers {
  prompt: string;
  model: ImageModelInfo;
  choices: ImageChoices;
}

interface Choice<T> {
  label: string;
  description?: string;
  detail?: string;
  value: T;
}

/** The question on screen as the user reads it (ModelgateApi.imageQuestion, for tests); undefined once it closed. */
export interface ImageQuestionView {
  title: string;
  rows: { label: string; description?: string; detail?: string }[];
}
let shown: ImageQuestionView | undefined;
export const openImageQuestion = (): ImageQuestionView | undefined => shown;

/** A single-choice quick pick that starts on `active`; undefined on Escape. */
function pickOne<T>(title: string, placeholder: string, choices: Choice<T>[], active: T): Promise<T | undefined> {
  return new Promise((resolve) => {
    shown = { title, rows: choices.map(({ label, description, detail }) => ({ label, description, detail })) };
    const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { value: T }>();
    qp.title = title;
    qp.placeholder = placeholder;
    qp.items = choices.map((c) => ({ label: c.label, description: c.description, detail: c.detail, value: c.value }));
    const start = qp.items.find((i) => i.value === active);
    if (start) qp.activeItems = [start];
    let done = false;
    const finish = (value: T | undefined) => {
      if (done) return;
      done = true;
      shown = undefined;
      resolve(value);
      qp.dispose();
    };
    qp.onDidAccept(() => finish(qp.selectedItems[0]?.value ?? qp.activeItems[0]?.value));
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}

export async function askPrompt(initial: string): Promise<string | undefined> {
  const prompt = await vscode.window.showInputBox({
    title: vscode.l10n.t('Generate Image'),
    prompt: vscode.l10n.t('Describe the picture'),
    placeHolder: vscode.l10n.t('e.g. a watercolor banner of a lighthouse at dawn'),
    value: initial,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Describe the picture to generate.')),
  });
  return prompt?.trim() || undefined;
}

export async function askModel(catalogue: ModelCatalogue, preferred: string): Promise<ImageModelInfo | undefined> {
  const models = catalogue.imageModels();
  if (models.length === 0) return undefined;
  if (models.length === 1) return models[0];
  const start = models.find((m) => m.id === preferred) ?? models[0];
  return pickOne(
    vscode.l10n.t('Generate Image: Model'),
    vscode.l10n.t('Which image model?'),
    models.map((m) => ({
      label: m.label,
      description: m.id === m.label ? undefined : m.id,
      // the price first, so a narrow picker cuts the options, never the price
      detail: m.rulesUnknown
        ? `${modelPriceText(m)} · ${vscode.l10n.t('listed by the gateway; its options are not known here, the gateway decides')}`
        : [
            modelPriceText(m),
            vscode.l10n.t('sizes {0}', optionSpace(m).sizes.join(', ')),
            m.maxN > 1 ? vscode.l10n.t('up to {0} images', m.maxN) : vscode.l10n.t('1 image per request'),
            m.quality ? vscode.l10n.t('quality') : '',
            m.style ? vscode.l10n.t('style') : '',
          ]
            .filter(Boolean)
            .join(' · '),
      value: m,
    })),
    start,
  );
}

/** Whether askOptions asks anything for `model` (an option with a choice). */
export function asksOptions(model: ImageModelInfo): boolean {
  const space = optionSpace(model);
  return space.sizes.length > 1 || space.counts.length > 1 || !!space.qualities || !!space.styles;
}

/**
 * The request before it is spent, when no option question showed its price: true to generate.
 * The answer that spends nothing comes first and is the default, so Enter and Escape send nothing.
 */
export async function confirmRequest(model: ImageModelInfo, choices: ImageChoices): Promise<boolean> {
  const price = requestPriceText(requestCost(model, choices.size, choices.n, choices.quality), choices.n);
  const what = choices.n === 1 ? vscode.l10n.t('1 image, {0}', choices.size) : vscode.l10n.t('{0} images, {1}', choices.n, choices.size);
  const generate = await pickOne(
    vscode.l10n.t('Generate Image: {0} ({1})', price, model.label),
    vscode.l10n.t('Generate {0} with {1}?', what, model.label),
    [
      { label: vscode.l10n.t("Don't Generate"), description: vscode.l10n.t('nothing is spent'), value: false },
      { label: vscode.l10n.t('Generate'), description: vscode.l10n.t('{0} · {1}', price, what), value: true },
    ],
    false,
  );
  return generate === true;
}

/** Asks each option the model has; options with a single possible value are not asked. */
export async function askOptions(model: ImageModelInfo, last: LastImageChoices): Promise<ImageChoices | undefined> {
  const space = optionSpace(model);
  const start = defaultChoices(model, last.get(model.id));
  const choices: ImageChoices = { ...start };
  const title = (what: string) => vscode.l10n.t('Generate Image: {0} ({1})', what, model.label);

  if (space.sizes.length > 1) {
    const size = await pickOne(
      title(vscode.l10n.t('Size')),
      vscode.l10n.t('Image size'),
      // the price first: a narrow quick pick cuts the end of a description
      space.sizes.map((s) => ({ label: s, description: `${choicePriceText(model, s, 1)} · ${SIZE_NOTES[s]}`, value: s })),
      start.size,
    );
    if (!size) return undefined;
    choices.size = size;
  }
  if (space.counts.length > 1) {
    const n = await pickOne(
      title(vscode.l10n.t('Number of images')),
      vscode.l10n.t('How many images?'),
      space.counts.map((c) => ({ label: String(c), description: choicePriceText(model, choices.size, c), value: c })),
      start.n,
    );
    if (!n) return undefined;
    choices.n = n;
  }
  if (space.qualities) {
    const notes: Record<ImageQuality, string> = { standard: vscode.l10n.t('faster, cheaper'), hd: vscode.l10n.t('finer detail') };
    const quality = await pickOne(
      title(vscode.l10n.t('Quality')),
      vscode.l10n.t('Quality'),
      space.qualities.map((q) => ({
        label: q,
        description: `${requestPriceText(requestCost(model, choices.size, choices.n, q), choices.n)} · ${notes[q]}`,
        value: q,
      })),
      start.quality,
    );
    if (!quality) return undefined;
    choices.quality = quality;
  }
  if (space.styles) {
    const notes: Record<ImageStyle, string> = { vivid: vscode.l10n.t('dramatic, hyper-real'), natural: vscode.l10n.t('more natural, less saturated') };
    // the style changes nothing in the price: the title says what the request costs
    const price = requestPriceText(requestCost(model, choices.size, choices.n, choices.quality), choices.n);
    const style = await pickOne(
      vscode.l10n.t('{0} · {1}', title(vscode.l10n.t('Style')), price),
      vscode.l10n.t('Style'),
      space.styles.map((s) => ({ label: s, description: notes[s], value: s })),
      start.style,
    );
    if (!style) return undefined;
    choices.style = style;
  }
  return choices;
}
