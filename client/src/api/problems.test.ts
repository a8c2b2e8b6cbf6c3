import { describe, expect, it } from 'vitest';
import { en, ru } from '../i18n/dictionary';
import { MAX_RETRY_AFTER_S, describeProblem, parseRetryAfter, problemFromResponse } from './problems';

describe('describeProblem', () => {
  it.each([
    ['invalid-name', 400, 'problem.invalid-name', 'name'],
    ['invalid-start-date', 400, 'problem.invalid-start-date', 'startDate'],
    ['invalid-map', 400, 'problem.invalid-map', 'map'],
    ['unknown-mod', 400, 'problem.unknown-mod', 'mods'],
    ['invalid-catalog', 400, 'problem.invalid-catalog', 'mods'],
    ['school-limit-reached', 409, 'problem.school-limit-reached', 'form'],
    ['network-error', 0, 'problem.network-error', 'form'],
    ['unauthorized', 401, 'problem.unauthorized', 'form'],
    ['forbidden', 403, 'problem.forbidden', 'form'],
    ['forbidden-origin', 403, 'problem.forbidden-origin', 'form'],
  ])('maps %s to its message and field', (code, status, key, field) => {
    expect(describeProblem({ status, code })).toEqual({ key, field });
  });

  it('falls back on the HTTP status for codes it does not know', () => {
    expect(describeProblem({ status: 400, code: 'something-new' }).key).toBe('problem.bad-request');
    expect(describeProblem({ status: 404, code: 'whatever' }).key).toBe('problem.not-found');
    expect(describeProblem({ status: 503, code: 'http-503' }).key).toBe('problem.server-error');
    expect(describeProblem({ status: 401, code: 'http-401' }).key).toBe('problem.unauthorized');
    expect(describeProblem({ status: 403, code: 'http-403' }).key).toBe('problem.forbidden');
  });

  it('has a message in both languages for every code', () => {
    for (const code of ['invalid-name', 'invalid-start-date', 'invalid-map', 'unknown-mod', 'invalid-catalog', 'school-limit-reached', 'unauthorized', 'forbidden', 'forbidden-origin']) {
      const { key } = describeProblem({ status: 400, code });
      expect(en[key]).toBeTruthy();
      expect(ru[key]).toBeTruthy();
    }
  });
});

describe('problemFromResponse', () => {
  it('keeps the code and detail of a problem body', () => {
    expect(
      problemFromResponse(400, { type: 'about:blank', title: 'Bad name', status: 400, code: 'invalid-name', detail: 'blank' }),
    ).toEqual({ status: 400, code: 'invalid-name', title: 'Bad name', detail: 'blank' });
  });

  it('survives a body that is not a problem', () => {
    expect(problemFromResponse(502, '<html>bad gateway</html>')).toEqual({ status: 502, code: 'http-502' });
    expect(problemFromResponse(404, null)).toEqual({ status: 404, code: 'not-found' });
  });

  it('keeps the code of an owners-mode refusal', () => {
    const body = { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'wrong token', code: 'forbidden' };
    expect(problemFromResponse(403, body)).toEqual({ status: 403, code: 'forbidden', title: 'Forbidden', detail: 'wrong token' });
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0); // already past
    expect(parseRetryAfter('99999999999', now)).toBe(MAX_RETRY_AFTER_S);
    for (const bad of [null, undefined, '', '-3', '1.5', 'soon', '12 seconds', '0x10']) expect(parseRetryAfter(bad, now)).toBeNull();
  });

  it('rides on the problem and picks the words of a 429 or a busy 503', () => {
    const limited = problemFromResponse(429, { code: 'too-many-leagues', detail: '4 running' }, '12');
    expect(limited).toEqual({ status: 429, code: 'too-many-leagues', detail: '4 running', retryAfter: 12 });
    expect(describeProblem(limited).key).toBe('problem.too-many-requests');
    expect(describeProblem(problemFromResponse(503, null, '5')).key).toBe('problem.busy');
    expect(problemFromResponse(503, null, 'later')).toEqual({ status: 503, code: 'http-503' });
  });
});
