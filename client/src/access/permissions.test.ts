import { describe, expect, it } from 'vitest';
import { en, ru } from '../i18n/dictionary';
import {
  accessProblemKey,
  authorizationHeaders,
  credentialFor,
  mayManage,
  modeFromHealth,
  parseAccessMode,
  watchSocketParams,
} from './permissions';
import type { Credential } from './permissions';

const OWNER = 'b'.repeat(64);
const OPERATOR = 'c'.repeat(64);

describe('the access mode from /health', () => {
  it('reads the access field', () => {
    expect(parseAccessMode({ status: 'serving', access: 'owners' })).toBe('owners');
    expect(parseAccessMode({ status: 'serving', access: 'open' })).toBe('open');
  });

  it('takes an older server without the field, or anything odd, as open', () => {
    expect(parseAccessMode({ status: 'serving' })).toBe('open');
    expect(parseAccessMode({ access: 'OWNERS' })).toBe('open');
    expect(parseAccessMode(null)).toBe('open');
    expect(parseAccessMode('healthy')).toBe('open');
  });

  it('asks again when there was no answer, or a failing one without the field', () => {
    expect(modeFromHealth(200, { status: 'serving', access: 'owners' })).toBe('owners');
    expect(modeFromHealth(503, { status: 'draining', access: 'owners' })).toBe('owners');
    expect(modeFromHealth(200, { status: 'serving' })).toBe('open');
    expect(modeFromHealth(404, null)).toBe('open');
    expect(modeFromHealth(0, null)).toBe('retry');
    expect(modeFromHealth(502, '<html>bad gateway</html>')).toBe('retry');
  });
});

describe('which credential is sent and which buttons show', () => {
  it('prefers the owner token, then the operator token, in owners mode', () => {
    expect(credentialFor('owners', OWNER, OPERATOR)).toEqual({ kind: 'owner', token: OWNER });
    expect(credentialFor('owners', null, OPERATOR)).toEqual({ kind: 'operator', token: OPERATOR });
    expect(credentialFor('owners', null, null)).toEqual({ kind: 'none' });
  });

  it('sends nothing in open mode or before the mode is known', () => {
    expect(credentialFor('open', OWNER, OPERATOR)).toEqual({ kind: 'none' });
    expect(credentialFor(null, OWNER, OPERATOR)).toEqual({ kind: 'none' });
  });

  it.each([
    ['open', null, null, true],
    ['open', OWNER, OPERATOR, true],
    ['owners', OWNER, null, true],
    ['owners', null, OPERATOR, true],
    ['owners', null, null, false],
    [null, OWNER, OPERATOR, false],
  ] as const)('mode %s, owner %s, operator %s: offered %s', (mode, owner, operator, offered) => {
    expect(mayManage(mode, credentialFor(mode, owner, operator))).toBe(offered);
  });
});

describe('how the credential travels', () => {
  it('as a Bearer header, or no header at all', () => {
    expect(authorizationHeaders({ kind: 'owner', token: OWNER })).toEqual({ Authorization: `Bearer ${OWNER}` });
    expect(authorizationHeaders({ kind: 'operator', token: OPERATOR })).toEqual({ Authorization: `Bearer ${OPERATOR}` });
    expect(authorizationHeaders({ kind: 'none' })).toEqual({});
  });

  it('as ownerToken on the watch socket, never as name, slot or token', () => {
    const params = watchSocketParams('m3', { kind: 'operator', token: OPERATOR });
    expect(params).toEqual({ match: 'm3', ownerToken: OPERATOR });
    expect(Object.keys(params)).not.toContain('token');
    expect(watchSocketParams('m3', { kind: 'none' })).toEqual({ match: 'm3' });
  });
});

describe('a refusal in words', () => {
  const problem = (status: number, code: string) => ({ status, code, title: 'x', detail: 'y' });
  const cases: Array<[number, string, Credential['kind'], 'school' | 'match', string]> = [
    [401, 'unauthorized', 'none', 'school', 'access.unauthorized.school'],
    [401, 'unauthorized', 'none', 'match', 'access.unauthorized.match'],
    [403, 'forbidden', 'operator', 'school', 'access.operatorWrong'],
    [403, 'forbidden', 'operator', 'match', 'access.operatorWrong'],
    [403, 'forbidden', 'owner', 'school', 'access.notOwner.school'],
    [403, 'forbidden', 'owner', 'match', 'access.notOwner.match'],
    [403, 'forbidden', 'none', 'match', 'access.notOwner.match'],
    [403, 'forbidden-origin', 'owner', 'school', 'access.forbiddenOrigin'],
    [403, 'http-403', 'operator', 'school', 'access.operatorWrong'], // a body that was no problem
  ];
  it.each(cases)('%i %s with %s credential on a %s', (status, code, sent, subject, key) => {
    expect(accessProblemKey(problem(status, code), sent, subject)).toBe(key);
  });

  it('leaves other problems to their usual message', () => {
    expect(accessProblemKey(problem(404, 'not-found'), 'owner', 'school')).toBeNull();
    expect(accessProblemKey(problem(0, 'network-error'), 'operator', 'match')).toBeNull();
  });

  it('has the words in both languages, and they differ', () => {
    for (const [status, code, sent, subject] of cases) {
      const key = accessProblemKey(problem(status, code), sent, subject)!;
      expect(en[key]).toBeTruthy();
      expect(ru[key]).toBeTruthy();
      expect(ru[key]).not.toBe(en[key]);
    }
    expect(en['access.notOwner.school']).toBe('You are not the owner of this school.');
    expect(en['access.operatorWrong']).toMatch(/operator token is wrong/);
  });
});
