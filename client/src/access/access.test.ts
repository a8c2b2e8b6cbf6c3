import { afterEach, describe, expect, it, vi } from 'vitest';

const OWNER = 'd'.repeat(64);
const OPERATOR = 'e'.repeat(64);

// The module keeps one state per page: each test gets a fresh copy.
async function freshAccess(health: { status: number; body: unknown } | 'unreachable') {
  vi.resetModules();
  let calls = 0;
  vi.stubGlobal('fetch', vi.fn(async () => {
    calls++;
    if (health === 'unreachable' && calls === 1) throw new TypeError('Failed to fetch');
    const answer = health === 'unreachable' ? { status: 200, body: { status: 'serving', access: 'owners' } } : health;
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  }));
  const access = await import('./access');
  return { access, calls: () => calls };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the page access state', () => {
  it('offers nothing before /health answers, then everything on an open server', async () => {
    const { access } = await freshAccess({ status: 200, body: { status: 'serving', access: 'open' } });
    expect(access.accessMode()).toBeNull();
    expect(access.canManage('school', 1)).toBe(false);
    await access.loadAccessMode();
    expect(access.accessMode()).toBe('open');
    expect(access.canManage('school', 1)).toBe(true);
    expect(access.authorizationFor('school', 1)).toEqual({});
  });

  it('takes a server without the field as open', async () => {
    const { access } = await freshAccess({ status: 200, body: { status: 'serving' } });
    await access.loadAccessMode();
    expect(access.accessMode()).toBe('open');
  });

  it('in owners mode offers what this browser created, and everything with the operator token', async () => {
    const { access } = await freshAccess({ status: 200, body: { status: 'serving', access: 'owners' } });
    const heard: number[] = [];
    access.onAccessChange(() => heard.push(1));
    await access.loadAccessMode();
    expect(access.canManage('hns', 'm2')).toBe(false);
    access.rememberOwner('hns', 'm2', OWNER);
    expect(access.canManage('hns', 'm2')).toBe(true);
    expect(access.canManage('hns', 'm1')).toBe(false); // e.g. the default match
    expect(access.authorizationFor('hns', 'm2')).toEqual({ Authorization: `Bearer ${OWNER}` });
    expect(access.watchParams('m2')).toEqual({ match: 'm2', ownerToken: OWNER });
    expect(access.watchParams('m1')).toEqual({ match: 'm1' });

    const before = access.accessSignature();
    expect(access.setOperatorToken('  ')).toBe(false);
    expect(access.setOperatorToken(OPERATOR)).toBe(true);
    expect(access.accessSignature()).not.toBe(before);
    expect(access.canManage('hns', 'm1')).toBe(true);
    expect(access.authorizationFor('hns', 'm1')).toEqual({ Authorization: `Bearer ${OPERATOR}` });
    expect(access.authorizationFor('hns', 'm2')).toEqual({ Authorization: `Bearer ${OWNER}` }); // the owner's first

    access.forgetOwner('hns', 'm2');
    access.clearOperatorToken();
    expect(access.canManage('hns', 'm2')).toBe(false);
    expect(heard.length).toBe(5); // mode, remember, set, forget, clear
  });

  it('gives the schools socket no tokens and every control on an open server', async () => {
    const { access } = await freshAccess({ status: 200, body: { status: 'serving', access: 'open' } });
    access.rememberOwner('school', 4, OWNER); // e.g. kept from when the server ran in owners mode
    access.setOperatorToken(OPERATOR);
    expect(access.canControlSchool(4)).toBe(false); // not before the mode is known
    await access.loadAccessMode();
    expect(access.schoolSocketTokenList(4)).toEqual([]);
    expect(access.canControlSchool(4)).toBe(true);
    expect(access.canControlSchool(5)).toBe(true);
    access.forgetOwner('school', 4);
    access.clearOperatorToken();
  });

  it('in owners mode gives the schools socket the tokens held and controls only where one opens the school', async () => {
    const { access } = await freshAccess({ status: 200, body: { status: 'serving', access: 'owners' } });
    await access.loadAccessMode();
    expect(access.schoolSocketTokenList(4)).toEqual([]);
    expect(access.canControlSchool(4)).toBe(false);
    access.rememberOwner('school', 4, OWNER);
    access.rememberOwner('hns', 'm4', 'f'.repeat(64)); // a match's token opens no school
    expect(access.schoolSocketTokenList(4)).toEqual([OWNER]);
    expect(access.schoolSocketTokenList(5)).toEqual([OWNER]);
    expect(access.canControlSchool(4)).toBe(true);
    expect(access.canControlSchool(5)).toBe(false);
    access.setOperatorToken(OPERATOR);
    expect(access.schoolSocketTokenList(5)).toEqual([OPERATOR, OWNER]);
    expect(access.schoolSocketTokenList(4)).toEqual([OWNER, OPERATOR]);
    expect(access.canControlSchool(5)).toBe(true);
    access.clearOperatorToken();
    access.forgetOwner('school', 4);
    expect(access.schoolSocketTokenList(4)).toEqual([]);
    expect(access.canControlSchool(4)).toBe(false);
  });

  it('asks /health again when the server could not be reached', async () => {
    vi.useFakeTimers();
    const { access, calls } = await freshAccess('unreachable');
    const loaded = access.loadAccessMode();
    await vi.runAllTimersAsync();
    await loaded;
    expect(calls()).toBe(2);
    expect(access.accessMode()).toBe('owners');
  });
});
