// zod schemas of what the gateway sends. Lenient by design: unknown fields pass through
// (looseObject) because OpenAI-compatible servers add their own, but a known field with the
// wrong type fails, so garbage becomes a 'protocol' error instead of silently wrong output.
import * as z from 'zod';
import { lazy } from '../lazy';

// Built on first use (wire()), not when the bundle loads: activation validates nothing from the gateway.
function buildSchemas() {
  const count = z.number().finite().nonnegative();

  const wireUsageSchema = z.looseObject({
    prompt_tokens: count.nullish(),
    completion_tokens: count.nullish(),
    prompt_tokens_details: z.looseObject({ cached_tokens: count.nullish() }).nullish(),
  });

  const toolCallDeltaSchema = z.looseObject({
    /** Keys the fragments of one call; some servers omit it when they send whole calls. */
    index: z.number().int().nonnegative().nullish(),
    id: z.string().nullish(),
    type: z.string().nullish(),
    function: z
      .looseObject({
        name: z.string().nullish(),
        arguments: z.string().nullish(),
      })
      .nullish(),
  });

  const chunkChoiceSchema = z.looseObject({
    index: z.number().int().nonnegative().nullish(),
    delta: z
      .looseObject({
        role: z.string().nullish(),
        /** a list of chunks from Mistral's reasoning models (`thinking` and `text`), read by contentParts.ts */
        content: z.union([z.string(), z.array(z.unknown())]).nullish(),
        tool_calls: z.array(toolCallDeltaSchema).nullish(),
      })
      .nullish(),
    finish_reason: z.string().nullish(),
  });

  /** One `data:` event of a streamed chat answer. */
  const chatChunkSchema = z.looseObject({
    choices: z.array(chunkChoiceSchema).nullish(),
    usage: wireUsageSchema.nullish(),
  });

  const textPartSchema = z.looseObject({ type: z.string().optional(), text: z.string().optional() });

  const wireToolCallSchema = z.looseObject({
    id: z.string().nullish(),
    type: z.string().nullish(),
    function: z.looseObject({
      name: z.string(),
      /** Some servers send an object instead of the JSON text; it is re-serialized. */
      arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
    }),
  });

  /** A non-streamed chat answer (its shape is "not shown" in the gateway's interface; this is the OpenAI one). */
  const chatCompletionSchema = z.looseObject({
    choices: z
      .array(
        z.looseObject({
          message: z
            .looseObject({
              role: z.string().nullish(),
              content: z.union([z.string(), z.array(textPartSchema)]).nullish(),
              tool_calls: z.array(wireToolCallSchema).nullish(),
            })
            .nullish(),
          finish_reason: z.string().nullish(),
        }),
      )
      .min(1),
    usage: wireUsageSchema.nullish(),
  });

  /** `{error: {...}}` (OpenAI), `{error: "text"}` and `{message}` bodies, in HTTP errors and in streams. */
  const errorObjectSchema = z.looseObject({
    message: z.unknown().optional(),
    type: z.unknown().optional(),
    code: z.unknown().optional(),
    param: z.unknown().optional(),
    status: z.unknown().optional(),
  });
  const errorEnvelopeSchema = z.looseObject({
    error: z.union([z.string(), errorObjectSchema]),
  });

  const imageResponseSchema = z.looseObject({
    created: z.number().finite(),
    data: z
      .array(
        z
          .looseObject({
            url: z.string().min(1).nullish(),
            b64_json: z.string().min(1).nullish(),
            revised_prompt: z.string().nullish(),
          })
          .refine((image) => Boolean(image.url || image.b64_json), { message: 'an image has neither url nor b64_json' }),
      )
      .min(1, { message: 'the response contains no images' }),
  });

  const modelEntrySchema = z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]);
  const modelListSchema = z.union([z.looseObject({ data: z.array(modelEntrySchema) }), z.array(modelEntrySchema)]);
  return {
    wireUsageSchema,
    toolCallDeltaSchema,
    chunkChoiceSchema,
    chatChunkSchema,
    wireToolCallSchema,
    chatCompletionSchema,
    errorObjectSchema,
    errorEnvelopeSchema,
    imageResponseSchema,
    modelListSchema,
  };
}

/** The gateway's schemas, built on the first call. */
export const wire = lazy(buildSchemas);
type Schemas = ReturnType<typeof buildSchemas>;
export type WireUsage = z.infer<Schemas['wireUsageSchema']>;
export type ToolCallDelta = z.infer<Schemas['toolCallDeltaSchema']>;
export type ChatChunk = z.infer<Schemas['chatChunkSchema']>;
export type WireChatCompletion = z.infer<Schemas['chatCompletionSchema']>;

/** "path: problem" of the first zod issue, for a short protocol error message. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unexpected shape';
  const path = issue.path.length ? issue.path.join('.') : 'body';
  return `${path}: ${issue.message}`;
}
