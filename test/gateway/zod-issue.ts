// Turns the first zod issue into the 400 an OpenAI-compatible service sends: a message that
// names the parameter, and `param` in the dotted/bracketed form those services use.
import type { z } from 'zod';
import { ApiError, invalidRequest } from './api-error';

export function paramPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

export function zodToApiError(error: z.ZodError, raw: unknown): ApiError {
  const issue = error.issues[0];
  if (!issue) return invalidRequest('Invalid request body.');
  const param = paramPath(issue.path);
  if (issue.code === 'invalid_type' && valueAt(raw, issue.path) === undefined) {
    return invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
  }
  return invalidRequest(`Invalid value for '${param}': ${issue.message}.`, param, 'invalid_value');
}
