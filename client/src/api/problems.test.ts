import { describe, expect, it } from 'vitest';
import { en, ru } from '../i18n/dictionary';
import { describeProblem, problemFromResponse } from './problems';

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
