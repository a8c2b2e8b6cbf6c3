import { describe, expect, it } from 'vitest';
import { en, ru } from '../i18n/dictionary';
import { ENTRANT_KINDS } from './api';
import { MAX_FORM_ENTRANTS, addEntrant, defaultDraft, draftErrors, planned, removeEntrant, suggestName, toRequest, updateEntrant } from './draft';
import type { LeagueDraft } from './draft';

const named = (draft: LeagueDraft, ...names: string[]): LeagueDraft =>
  names.reduce((d, name, i) => updateEntrant(d, d.entrants[i]!.key, { name }), draft);

describe('the start-a-league form', () => {
  it('starts with burrow against random and sends what the contract wants', () => {
    const draft = defaultDraft('certification');
    expect(draft.entrants.map((e) => [e.name, e.kind])).toEqual([['burrow', 'builtin:burrow'], ['random', 'builtin:random']]);
    const checked = toRequest({ ...draft, matches: ' 2 ', seed: '7' });
    expect(checked).toEqual({ ok: true, request: {
      entrants: [{ name: 'burrow', kind: 'builtin:burrow' }, { name: 'random', kind: 'builtin:random' }], matches: 2, variant: 'certification', seed: 7,
    } });
  });

  it('leaves the seed out when empty and sends a prompt entrant\'s text', () => {
    let draft = addEntrant(defaultDraft('default'));
    const third = draft.entrants[2]!;
    draft = updateEntrant(draft, third.key, { kind: 'prompt', name: 'p', prompt: 'hide well' });
    const checked = toRequest(draft);
    if (!checked.ok) throw new Error('refused');
    expect('seed' in checked.request).toBe(false);
    expect(checked.request.entrants[2]).toEqual({ name: 'p', kind: 'prompt', prompt: 'hide well' });
  });

  it('adds kinds not yet entered with free names, up to the limit, and removes by key', () => {
    let draft = defaultDraft('default');
    draft = addEntrant(draft);
    expect(draft.entrants[2]).toMatchObject({ kind: 'builtin:scatter', name: 'scatter' });
    for (let i = 0; i < 40; i++) draft = addEntrant(draft);
    expect(draft.entrants).toHaveLength(MAX_FORM_ENTRANTS);
    expect(new Set(draft.entrants.map((e) => e.name)).size).toBe(MAX_FORM_ENTRANTS);
    const gone = draft.entrants[1]!.key;
    expect(removeEntrant(draft, gone).entrants.map((e) => e.key)).not.toContain(gone);
    expect(suggestName('builtin:random', ['random', 'random-2'])).toBe('random-3');
  });

  it('names every problem before anything is sent', () => {
    const draft = named(defaultDraft('default'), 'same', 'same');
    const codes = (d: LeagueDraft) => draftErrors(d).map((e) => [e.field, e.index ?? null]);
    expect(codes(draft)).toEqual([['name', 1]]);
    expect(codes(named(defaultDraft('d'), '', 'a b'))).toEqual([['name', 0], ['name', 1]]);
    expect(codes(named(defaultDraft('d'), 'x'.repeat(33), 'ok'))).toEqual([['name', 0]]);
    expect(codes({ ...defaultDraft('d'), matches: '0' })).toEqual([['matches', null]]);
    expect(codes({ ...defaultDraft('d'), matches: '1001' })).toEqual([['matches', null]]);
    expect(codes({ ...defaultDraft('d'), matches: '2.5' })).toEqual([['matches', null]]);
    expect(codes({ ...defaultDraft('d'), seed: '-1' })).toEqual([]);
    expect(codes({ ...defaultDraft('d'), seed: '1e3' })).toEqual([['seed', null]]);
    expect(codes({ ...defaultDraft('d'), seed: '1'.repeat(16) })).toEqual([['seed', null]]);
    const one = defaultDraft('d');
    expect(codes(removeEntrant(one, one.entrants[0]!.key))).toEqual([['entrants', null]]);
    const prompt = updateEntrant(one, one.entrants[0]!.key, { kind: 'prompt', prompt: '  ' });
    expect(codes(prompt)).toEqual([['prompt', 0]]);
    expect(toRequest(prompt).ok).toBe(false);
    const long = updateEntrant(one, one.entrants[0]!.key, { kind: 'prompt', prompt: 'ж'.repeat(2049) }); // 4098 bytes
    expect(draftErrors(long).map((e) => e.key)).toEqual(['leagues.error.promptLong']);
    expect(draftErrors(updateEntrant(long, one.entrants[0]!.key, { prompt: 'ж'.repeat(2048) }))).toEqual([]);
  });

  it('counts the matches a league plans', () => {
    expect(planned(2, 2)).toEqual({ pairings: 1, total: 2 });
    expect(planned(4, 24)).toEqual({ pairings: 6, total: 144 });
    expect(planned(1, 5)).toEqual({ pairings: 0, total: 0 });
  });

  it('has words for every kind and error in both languages', () => {
    for (const kind of ENTRANT_KINDS) {
      expect(en[`leagues.kind.${kind}`]).toBeTruthy();
      expect(ru[`leagues.kind.${kind}`]).toBeTruthy();
    }
  });
});
