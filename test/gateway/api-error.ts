// Error responses in the shape OpenAI-compatible services use: {"error": {message, type, param, code}}.
// The gateway's interface leaves the shape "not shown"; this is the usual one.

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export function invalidRequest(message: string, param: string | null = null, code: string | null = null): ApiError {
  return new ApiError(400, message, 'invalid_request_error', param, code);
}

export const invalidApiKey = (): ApiError => new ApiError(401, 'Invalid API key provided.', 'invalid_request_error', null, 'invalid_api_key');

export const insufficientBalance = (): ApiError =>
  new ApiError(402, 'Insufficient balance. Top up in the console.', 'insufficient_quota', null, 'insufficient_balance');

export const notFound = (method: string, path: string): ApiError =>
  new ApiError(404, `Unknown request URL: ${method} ${path}.`, 'invalid_request_error', null, 'unknown_url');
