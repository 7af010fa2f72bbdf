// Expected failures carry a stable code that the browser and e-mail templates translate.
export type ErrorCode =
  | 'notFound'
  | 'badRequest'
  | 'validationFailed'
  | 'conflict'
  | 'rateLimited'
  | 'unauthorized'
  | 'forbidden'
  | 'payloadTooLarge'
  | 'unsupportedMediaType'
  | 'malformedUpload'
  | 'uriTooLong'
  | 'headersTooLarge'
  | 'requestTimeout'
  | 'serviceUnavailable'
  | 'internalError'
  | (string & {});

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? code);
    this.name = 'AppError';
  }
}

export const notFound = (code: ErrorCode = 'notFound') => new AppError(404, code);
export const conflict = (code: ErrorCode, details?: Record<string, unknown>) => new AppError(409, code, code, details);
export const unprocessable = (code: ErrorCode, details?: Record<string, unknown>) => new AppError(422, code, code, details);

export interface ErrorBody {
  error: { code: ErrorCode; requestId: string; fields?: Record<string, string>; details?: Record<string, unknown> };
}
