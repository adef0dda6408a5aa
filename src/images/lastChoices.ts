// The options last used with each image model, so the questions start where the user left
// off. Kept in globalState (not secret; no prompt text either, only option values), and
// validated on read: the stored value is just a hint and is filtered against the catalogue by
// defaultChoices() before it is offered.
import type * as vscode from 'vscode';
import * as z from 'zod';
import type { ImageChoices } from './imageOptions';

export const LAST_CHOICES_KEY = 'modelgate.image.lastChoices';

const storedChoices = z.object({
  size: z.string().optional(),
  n: z.number().int().positive().optional(),
  quality: z.string().optional(),
  style: z.string().optional(),
});
const storedSchema = z.record(z.string(), storedChoices);
export type StoredChoices = z.infer<typeof storedChoices>;

export class LastImageChoices {
  constructor(private readonly state: vscode.Memento) {}

  private all(): Record<string, StoredChoices> {
    const parsed = storedSchema.safeParse(this.state.get(LAST_CHOICES_KEY));
    return parsed.success ? parsed.data : {};
  }

  get(modelId: string): StoredChoices | undefined {
    return this.all()[modelId];
  }

  async remember(modelId: string, choices: ImageChoices): Promise<void> {
    const { size, n, quality, style } = choices;
    await this.state.update(LAST_CHOICES_KEY, { ...this.all(), [modelId]: { size, n, quality, style } });
  }
}
