// The entries of the `modelgate.models` setting: their zod schemas, and a check by hand that
// accepts an entry only when the schema surely accepts it too. The catalogue is built while VS Code
// activates the extension (the status bar shows the model), and zod is a bundle of its own, loaded on
// the first call of a zod function: with the check, valid settings load no zod at activation, and
// anything else (a bad field, an unknown key, an odd value) goes to zod, whose messages name the
// field. A unit test compares the check with the schemas on a seeded corpus. Pure.
import * as z from 'zod';
import { lazy } from '../lazy';
import { l10n } from '../l10n';
import { IMAGE_SIZES } from '../client/types';
import { MAX_TOKENS_FIELDS, REASONING_EFFORTS, RESERVED_BODY_FIELDS } from '../client/modelParams';

// The schemas of `modelgate.models` are built on first use (not while the bundle loads: activation builds no schema).
function buildSchemas() {
  const priceSchema = z.object({
    /** USD per 1M input tokens */
    input: z.number().nonnegative(),
    /** USD per 1M output tokens */
    output: z.number().nonnegative(),
    /** USD per 1M cached input tokens; absent = cached tokens are billed at the input price */
    cacheRead: z.number().nonnegative().optional(),
  });

  const channelKey = z.enum(['default', 'direct', 'stable', 'economical']);

  const chatOverride = z.object({
    kind: z.literal('chat').optional(),
    label: z.string().optional(),
    contextWindow: z.number().int().positive().optional(),
    maxOutput: z.number().int().positive().optional(),
    imageInput: z.boolean().optional(),
    tools: z.boolean().optional(),
    caching: z.boolean().optional(),
    prices: z.partialRecord(channelKey, priceSchema).optional(),
    // request parameters
    maxOutputTokens: z.number().int().positive().max(100_000_000).optional(),
    maxTokensField: z.enum(MAX_TOKENS_FIELDS).optional(),
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().min(0).max(1).optional(),
    reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
    extraBody: z
      .record(z.string(), z.unknown())
      .superRefine((body, ctx) => {
        for (const key of Object.keys(body)) {
          if ((RESERVED_BODY_FIELDS as readonly string[]).includes(key)) {
            ctx.addIssue({ code: 'custom', path: [key], message: l10n.t('may not be set in extraBody (reserved: {0})', RESERVED_BODY_FIELDS.join(', ')) });
          }
        }
      })
      .optional(),
  });
  const imagePricesSchema = z.partialRecord(z.enum(['standard', 'hd']), z.partialRecord(z.enum(IMAGE_SIZES), z.number().nonnegative()));

  const imageOverride = z.object({
    kind: z.literal('image'),
    label: z.string().optional(),
    sizes: z.array(z.enum(IMAGE_SIZES)).nonempty().optional(),
    maxN: z.number().int().min(1).max(10).optional(),
    quality: z.boolean().optional(),
    style: z.boolean().optional(),
    /** USD per image by quality and size, e.g. {"standard": {"1024x1024": 0.04}} */
    prices: imagePricesSchema.optional(),
  });
  const modelOverrideSchema = z.union([imageOverride, chatOverride]);
  return { priceSchema, imagePricesSchema, modelOverrideSchema, imageOverride, chatOverride };
}
const schemas = lazy(buildSchemas);
type Schemas = ReturnType<typeof buildSchemas>;
export type Price = z.infer<Schemas['priceSchema']>;
export type ImagePrices = z.infer<Schemas['imagePricesSchema']>;
/** One entry of the `modelgate.models` setting. */
export type ModelOverride = z.infer<Schemas['modelOverrideSchema']>;
/** Schema of one entry of the `modelgate.models` setting (built on the first call). */
export const modelOverrideSchema = () => schemas().modelOverrideSchema;

/** An entry checked: the parsed entry, or what is wrong with it (each field named, `;`-separated). */
export type OverrideCheck = { success: true; data: ModelOverride } | { success: false; message: string };

/** One entry of `modelgate.models` (`id` names it in the message when the whole entry is wrong). */
export function parseModelOverride(id: string, raw: unknown): OverrideCheck {
  const isImage = isPlainObject(raw) && raw.kind === 'image';
  if (surelyValid(raw)) return { success: true, data: structuredClone(raw) as ModelOverride };
  // One schema per kind, so that a bad field is named (a union only says "Invalid input").
  const parsed = (isImage ? schemas().imageOverride : schemas().chatOverride).safeParse(raw);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, message: parsed.error.issues.map((i) => `${i.path.join('.') || id}: ${i.message}`).join('; ') };
}

/**
 * The check by hand: true only for what the schema of the entry's kind accepts unchanged (it strips
 * unknown keys, so an unknown key is left to zod; so is `undefined`, which JSON settings never hold).
 */
export function surelyValid(raw: unknown): boolean {
  return isPlainObject(raw) && raw.kind === 'image' ? surelyImage(raw) : surelyChat(raw);
}

type Check = (v: unknown) => boolean;
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype;
}
const number =
  (min: number, max = Infinity): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (v) =>
    typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const oneOf =
  (values: readonly unknown[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const text: Check = (v) => typeof v === 'string';
const flag: Check = (v) => typeof v === 'boolean';
/** an object whose every key is one of `fields` and passes its check, with the `required` keys present */
const fields =
  (table: Record<string, Check>, required: readonly string[] = []): Check =>
  (v) =>
    isPlainObject(v) && required.every((k) => Object.hasOwn(v, k)) && Object.keys(v).every((k) => Object.hasOwn(table, k) && table[k]!(v[k]));
/** an object whose every key passes `key` and every value `value` */
const entries =
  (key: Check, value: Check): Check =>
  (v) =>
    isPlainObject(v) && Object.keys(v).every((k) => key(k) && value(v[k]));
const nonnegative = number(0);
const positive = integer(1);
const price = fields({ input: nonnegative, output: nonnegative, cacheRead: nonnegative }, ['input', 'output']);
const surelyChat = fields({
  kind: (v) => v === 'chat',
  label: text,
  contextWindow: positive,
  maxOutput: positive,
  imageInput: flag,
  tools: flag,
  caching: flag,
  prices: entries(oneOf(['default', 'direct', 'stable', 'economical']), price),
  maxOutputTokens: integer(1, 100_000_000),
  maxTokensField: oneOf(MAX_TOKENS_FIELDS),
  temperature: number(0, 2),
  topP: number(0, 1),
  reasoningEffort: oneOf(REASONING_EFFORTS),
  extraBody: entries(
    (k) => k !== '__proto__' && !(RESERVED_BODY_FIELDS as readonly unknown[]).includes(k),
    (x) => x !== undefined,
  ),
});
const surelyImage = fields(
  {
    kind: (v) => v === 'image',
    label: text,
    sizes: (v) => Array.isArray(v) && v.length > 0 && Array.from(v as unknown[]).every(oneOf(IMAGE_SIZES)),
    maxN: integer(1, 10),
    quality: flag,
    style: flag,
    prices: entries(oneOf(['standard', 'hd']), entries(oneOf(IMAGE_SIZES), nonnegative)),
  },
  ['kind'],
);
