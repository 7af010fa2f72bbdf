// Talking to the shop's API: JSON in and out, failures as error codes the pages translate.
import { PHOTO_NAME_HEADER } from '../../domain/catalog.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly details: Record<string, unknown> = {},
    readonly fields: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

interface ErrorBody {
  error?: { code?: string; details?: Record<string, unknown>; fields?: Record<string, string> };
}

export function errorFromBody(status: number, body: unknown): ApiError {
  const error = (body as ErrorBody | null)?.error;
  return new ApiError(status, error?.code ?? (status === 429 ? 'rateLimited' : 'unknown'), error?.details ?? {}, error?.fields ?? {});
}

export async function api<T>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      signal: init.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network');
  }
  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw errorFromBody(response.status, body);
  return body as T;
}

/**
 * Uploads one file with real progress from the network (XMLHttpRequest reports upload bytes, fetch does not):
 * as a multipart form, or (`asBody`) as the request's body with its name in X-File-Name, which the order's photo
 * upload takes with less work on the server.
 */
export function uploadFile<T>(url: string, file: File, headers: Record<string, string>, onProgress: (fraction: number) => void, { asBody = false } = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: handled below by the status
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(errorFromBody(xhr.status, body));
    };
    if (asBody) {
      // A HEIC often has no type in the browser, and a PDF is not refused for its type: the server tells the
      // format from the bytes and answers in the customer's words.
      xhr.setRequestHeader('content-type', file.type.startsWith('image/') ? file.type : 'application/octet-stream');
      xhr.setRequestHeader(PHOTO_NAME_HEADER, encodeURIComponent(file.name));
      xhr.send(file);
      return;
    }
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
