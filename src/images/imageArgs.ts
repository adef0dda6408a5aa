// The argument object of a programmatic call:
//   vscode.commands.executeCommand('modelgate.generateImage',
//     { prompt, folder?, model?, size?, n?, quality?, style?, user?, format?, open?, insertLink? })
// Validated with zod (it crosses a trust boundary: any extension may call the command). The
// option values (size, n, quality, style) are only shape-checked here; whether the model
// supports them is decided by the catalogue (imageOptions.validateChoices), which lists what
// is allowed. Unknown keys are refused, so a typo ("sizes") is an error, not silently ignored.
import * as vscode from 'vscode';
import * as z from 'zod';

const uriComponents = z.object({
  scheme: z.string().min(1),
  authority: z.string().optional(),
  path: z.string(),
  query: z.string().optional(),
  fragment: z.string().optional(),
});

const folderSchema = z.union([
  z.string(),
  z.custom<vscode.Uri>((v) => v instanceof vscode.Uri),
  // a Uri that crossed an extension-host boundary arrives as its plain components
  uriComponents.transform((c) => vscode.Uri.from(c)),
]);

export const imageArgsSchema = z.strictObject({
  prompt: z.string().refine((p) => p.trim().length > 0, 'must not be empty'),
  /** a Uri, or a path relative to the workspace folder (absolute paths only inside the workspace) */
  folder: folderSchema.optional(),
  model: z.string().min(1).optional(),
  size: z.unknown().optional(),
  n: z.unknown().optional(),
  quality: z.unknown().optional(),
  style: z.unknown().optional(),
  /** the end user's id, sent as the request's `user` (checked by core/endUserId); replaces “modelgate.endUserId” */
  user: z.unknown().optional(),
  /** 'url' | 'b64_json': sent as response_format */
  format: z.enum(['url', 'b64_json']).optional(),
  /** open the image afterwards (default true) */
  open: z.boolean().optional(),
  /** insert a link into the active Markdown/HTML editor (default true) */
  insertLink: z.boolean().optional(),
});
export type ImageArgs = z.infer<typeof imageArgsSchema>;

/** A Uri from a menu (Explorer passes the clicked item; editor menus the document). */
export function isResourceArgument(arg: unknown): arg is vscode.Uri {
  return arg instanceof vscode.Uri;
}

export type ParsedArgs = { ok: true; args: ImageArgs } | { ok: false; problems: string[] };

export function parseImageArgs(arg: unknown): ParsedArgs {
  const parsed = imageArgsSchema.safeParse(arg);
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)),
  };
}
