import { describe, expect, it } from 'vitest';
import { en, ru } from '../i18n/dictionary';
import {
  accessProblemKey,
  authorizationHeaders,
  MAX_SCHOOL_SOCKET_TOKENS,
  MAX_SCHOOL_SOCKET_TOKEN_CHARS,
  credentialFor,
  fitsSchoolSocket,
  mayControlSchool,
  mayManage,
  modeFromHealth,
  parseAccessMode,
  schoolSocketTokens,
  watchSocketParams,
} from './permissions';
import type { Credential, Subject } from './permissions';

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
  const cases: Array<[number, string, Credential['kind'], Subject, string]> = [
    [401, 'unauthorized', 'none', 'school', 'access.unauthorized.school'],
    [401, 'unauthorized', 'none', 'match', 'access.unauthorized.match'],
    [403, 'forbidden', 'operator', 'school', 'access.operatorWrong'],
    [403, 'forbidden', 'operator', 'match', 'access.operatorWrong'],
    [403, 'forbidden', 'owner', 'school', 'access.notOwner.school'],
    [403, 'forbidden', 'owner', 'match', 'access.notOwner.match'],
    [403, 'forbidden', 'none', 'match', 'access.notOwner.match'],
    [403, 'forbidden-origin', 'owner', 'school', 'access.forbiddenOrigin'],
    [403, 'http-403', 'operator', 'school', 'access.operatorWrong'], // a body that was no problem
    [401, 'unauthorized', 'none', 'league', 'access.unauthorized.league'],
    [403, 'forbidden', 'owner', 'league', 'access.notOwner.league'],
    [403, 'forbidden', 'operator', 'league', 'access.operatorWrong'],
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

describe('the tokens the schools socket carries', () => {
  // Schools 1..n, newest first as the store lists them; each token tells its school apart.
  const ownedSchools = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(n - i), token: `${String(n - i).padStart(2, '0')}${'a'.repeat(62)}` }));
  const tokenOf = (id: number) => `${String(id).padStart(2, '0')}${'a'.repeat(62)}`;

  it('are none in open mode or before the mode is known, whatever this browser holds', () => {
    expect(schoolSocketTokens('open', 1, ownedSchools(3), OPERATOR)).toEqual([]);
    expect(schoolSocketTokens(null, 1, ownedSchools(3), OPERATOR)).toEqual([]);
  });

  it('are none in owners mode for a browser that holds nothing', () => {
    expect(schoolSocketTokens('owners', 1, [], null)).toEqual([]);
  });

  it('put the school of the socket first, then the operator, then the other schools newest first', () => {
    expect(schoolSocketTokens('owners', 2, ownedSchools(3), OPERATOR)).toEqual([tokenOf(2), OPERATOR, tokenOf(3), tokenOf(1)]);
    expect(schoolSocketTokens('owners', 9, ownedSchools(2), OPERATOR)).toEqual([OPERATOR, tokenOf(2), tokenOf(1)]);
    expect(schoolSocketTokens('owners', null, ownedSchools(2), null)).toEqual([tokenOf(2), tokenOf(1)]);
    expect(schoolSocketTokens('owners', 5, [], OPERATOR)).toEqual([OPERATOR]);
  });

  it('find the school by id whether it is given as a number or a string', () => {
    expect(schoolSocketTokens('owners', '1', ownedSchools(2), null)[0]).toBe(tokenOf(1));
    expect(schoolSocketTokens('owners', 1, ownedSchools(2), null)[0]).toBe(tokenOf(1));
  });

  it('hold no token twice', () => {
    const owned = [{ id: '1', token: OWNER }, { id: '2', token: OWNER }];
    expect(schoolSocketTokens('owners', 1, owned, OWNER)).toEqual([OWNER]);
  });

  it('stop at 16, keeping the school of the socket and the operator even when they would come last', () => {
    const owned = ownedSchools(40); // school 1 is the oldest, so last in the list
    const list = schoolSocketTokens('owners', 1, owned, OPERATOR);
    expect(list).toHaveLength(MAX_SCHOOL_SOCKET_TOKENS);
    expect(list[0]).toBe(tokenOf(1));
    expect(list[1]).toBe(OPERATOR);
    expect(list.slice(2)).toEqual(owned.slice(0, MAX_SCHOOL_SOCKET_TOKENS - 2).map((entry) => entry.token));
    const withoutOperator = schoolSocketTokens('owners', 1, owned, null);
    expect(withoutOperator).toHaveLength(MAX_SCHOOL_SOCKET_TOKENS);
    expect(withoutOperator[0]).toBe(tokenOf(1));
    expect(schoolSocketTokens('owners', 1, ownedSchools(MAX_SCHOOL_SOCKET_TOKENS), OPERATOR)).toHaveLength(MAX_SCHOOL_SOCKET_TOKENS);
  });

  it('leave out a token the server would refuse the socket for, or that a comma would cut', () => {
    const long = 'x'.repeat(MAX_SCHOOL_SOCKET_TOKEN_CHARS + 1);
    const justFits = 'y'.repeat(MAX_SCHOOL_SOCKET_TOKEN_CHARS);
    expect(fitsSchoolSocket(long)).toBe(false);
    expect(fitsSchoolSocket(justFits)).toBe(true);
    expect(fitsSchoolSocket('a,b')).toBe(false);
    expect(fitsSchoolSocket('')).toBe(false);
    expect(fitsSchoolSocket(null)).toBe(false);
    const owned = [{ id: '1', token: long }, { id: '2', token: 'has,comma' }, { id: '3', token: OWNER }];
    expect(schoolSocketTokens('owners', 1, owned, justFits)).toEqual([justFits, OWNER]);
    expect(schoolSocketTokens('owners', 1, [], long)).toEqual([]);
  });
});

describe('which schools this browser may pause and speed up', () => {
  it.each([
    ['open', null, null, true],
    ['open', OWNER, OPERATOR, true],
    ['owners', OWNER, null, true],
    ['owners', null, OPERATOR, true],
    ['owners', OWNER, OPERATOR, true],
    ['owners', null, null, false],
    ['owners', null, 'o'.repeat(MAX_SCHOOL_SOCKET_TOKEN_CHARS + 1), false], // the socket cannot carry it
    ['owners', 'x,y', null, false],
    [null, OWNER, OPERATOR, false],
  ] as const)('mode %s, owner %s, operator %s: controls %s', (mode, owner, operator, offered) => {
    expect(mayControlSchool(mode, owner, operator)).toBe(offered);
  });

  it('says why the clock is read-only, in both languages', () => {
    expect(en['school.controlsReadOnly']).toMatch(/^Only the owner of this school or the operator can pause it or change its speed/);
    expect(ru['school.controlsReadOnly']).toMatch(/владелец или оператор/);
  });

  it('offers the controls exactly when the socket carries a token that opens the school', () => {
    const operators = [null, OPERATOR, 'o'.repeat(MAX_SCHOOL_SOCKET_TOKEN_CHARS + 1)];
    const owners = [null, OWNER, 'w'.repeat(MAX_SCHOOL_SOCKET_TOKEN_CHARS + 1)];
    for (const operator of operators) {
      for (const owner of owners) {
        const owned = [...Array.from({ length: 30 }, (_, i) => ({ id: String(100 + i), token: `${i}`.padStart(64, 'c') })), ...(owner ? [{ id: '7', token: owner }] : [])];
        const sent = schoolSocketTokens('owners', 7, owned, operator);
        const opens = (owner !== null && sent.includes(owner)) || (operator !== null && sent.includes(operator));
        expect(mayControlSchool('owners', owner, operator), `${owner?.slice(0, 4)} ${operator?.slice(0, 4)}`).toBe(opens);
      }
    }
  });
});
