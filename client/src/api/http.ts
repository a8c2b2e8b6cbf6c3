// JSON over fetch with failures as values: a Problem, never an exception, reaches the views.
import { problemFromResponse } from './problems';
import type { Problem } from './problems';

export type ApiResult<T> = { ok: true; data: T } | { ok: false; problem: Problem };

export const REQUEST_TIMEOUT_MS = 10_000;

// `headers` adds to the defaults, e.g. the Authorization of an owner or the operator.
export async function requestJson<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  try {
    const init: RequestInit = { method, signal: controller.signal, headers: { Accept: 'application/json', ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...init.headers, 'Content-Type': 'application/json' };
    }
    const response = await fetch(url, init);
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) return { ok: false, problem: problemFromResponse(response.status, parsed, response.headers.get('Retry-After')) };
    return { ok: true, data: parsed as T };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: { status: 0, code: 'network-error', detail } };
  } finally {
    clearTimeout(timer);
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
