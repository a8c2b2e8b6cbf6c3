// DOM pieces shared by the hide-and-seek pages: seat chips, the results tables, the scoreboard.
import { t } from '../i18n/i18n';
import type { MessageKey } from '../i18n/i18n';
import type { EndReason } from './session';
import { h } from '../ui/dom';
import type { MatchResults, MatchSummary, Seat } from './api';
import type { Board } from './labels';
import { KIND_KEYS, hiddenShare, secondsLeft, sideKey, stageKey } from './format';
import './hns.css';

export const MATCH_POLL_MS = 1000; // the live pages read the match REST this often

export const END_KEYS: Record<EndReason, MessageKey> = {
  over: 'hns.end.over',
  gone: 'hns.end.gone',
  refused: 'hns.end.refused',
  malformed: 'hns.end.malformed',
};

export function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

// A match page's heading and the way back to the match list.
export function matchHeader(headingId: string, heading: string): HTMLElement {
  return h('div', { class: 'hns-header' },
    h('h1', { id: headingId, text: heading }),
    h('a', { href: '#/hns', class: 'nav-link', text: t('hns.back') }),
  );
}

// The spectator pages' "cannot keep up" notice; behind.ts decides when it shows.
export function behindNote(): HTMLElement {
  return h('div', { class: 'note note-warning', role: 'status', 'data-testid': 'hns-behind', hidden: true });
}

// Empty while hidden, so a screen reader announces the text each time it appears.
export function paintBehind(element: HTMLElement, showing: boolean, key: MessageKey): void {
  element.hidden = !showing;
  setText(element, showing ? t(key) : '');
}

const dash = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : String(value));

export function seatChip(seat: Seat): HTMLElement {
  const who = seat.kind === 'empty' ? t('hns.seat.free') : seat.identity || t(KIND_KEYS[seat.kind]);
  const side = seat.side ? t(sideKey(seat.side)) : '';
  return h('li', {
    class: `seat-chip seat-${seat.side ?? 'none'}${seat.connected ? '' : ' seat-away'}`,
    'data-testid': 'seat',
    'data-slot': seat.slot,
    'data-kind': seat.kind,
    title: `${t('hns.seat.slot', { slot: seat.slot })} · ${t(KIND_KEYS[seat.kind])}${seat.label ? ` (${seat.label})` : ''}${side ? ` · ${side}` : ''}`,
  },
  h('span', { class: 'seat-slot', text: String(seat.slot) }),
  h('span', { class: 'seat-name', text: who }),
  seat.kind !== 'empty' ? h('span', { class: 'seat-kind', text: t(KIND_KEYS[seat.kind]) }) : null,
  );
}

export function resultsTables(results: MatchResults): HTMLElement {
  const games = results.games;
  const seatTable = h('table', { class: 'hns-table', 'data-testid': 'results-seats' },
    h('caption', { text: t('hns.results.seats') }),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', text: t('hns.results.slot') }),
      h('th', { scope: 'col', text: t('hns.results.name') }),
      games.map((g) => h('th', { scope: 'col', text: t('hns.results.sideInGame', { game: g.game }) })),
      h('th', { scope: 'col', text: t('hns.results.score') }),
      h('th', { scope: 'col', text: t('hns.results.seen') }),
      h('th', { scope: 'col', text: t('hns.results.grabs') }),
      h('th', { scope: 'col', text: t('hns.results.locks') }),
      h('th', { scope: 'col', text: t('hns.results.vaults') }),
    )),
    h('tbody', {}, results.seats.map((seat) => h('tr', { 'data-testid': 'results-seat' },
      h('td', { text: String(seat.slot) }),
      h('th', { scope: 'row' }, seat.name, seat.alias ? h('span', { class: 'muted alias', text: ` ${seat.alias}` }) : null),
      games.map((g) => {
        const side = seat.sides[g.game - 1];
        return h('td', { class: side ? `side-${side}` : '', text: side ? t(sideKey(side)) : '—' });
      }),
      h('td', { class: 'num' }, dash(seat.score), seat.win ? h('span', { class: 'badge badge-running win', text: t('hns.results.win') }) : null),
      h('td', { class: 'num', text: dash(seat.seenTicks) }),
      h('td', { class: 'num', text: dash(seat.grabs) }),
      h('td', { class: 'num', text: dash(seat.locks) }),
      h('td', { class: 'num', text: dash(seat.vaults) }),
    ))),
  );
  const gameTable = h('table', { class: 'hns-table', 'data-testid': 'results-games' },
    h('caption', { text: t('hns.results.games') }),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', text: t('hns.results.game') }),
      h('th', { scope: 'col', text: t('hns.results.hidden') }),
      h('th', { scope: 'col', text: t('hns.results.seenTicks') }),
      h('th', { scope: 'col', text: t('hns.results.margin') }),
      h('th', { scope: 'col', text: t('hns.results.huntTicks') }),
    )),
    h('tbody', {}, games.map((g) => h('tr', {},
      h('th', { scope: 'row', text: String(g.game) }),
      h('td', { class: 'num', text: dash(g.hiddenTicks) }),
      h('td', { class: 'num', text: dash(g.seenTicks) }),
      h('td', { class: 'num', text: dash(g.margin) }),
      h('td', { class: 'num', text: dash(g.huntTicks) }),
    ))),
  );
  const facts = [
    results.room ? t('hns.results.room', { room: results.room }) : null,
    results.endRule || results.reason ? t('hns.results.ending', { rule: results.endRule || results.reason }) : null,
  ].filter((x): x is string => x !== null);
  return h('div', { class: 'hns-results', 'data-testid': 'results' },
    facts.length ? h('p', { class: 'muted', text: facts.join(' · ') }) : null,
    h('div', { class: 'table-scroll' }, seatTable),
    h('div', { class: 'table-scroll' }, gameTable),
  );
}

export interface ScoreFields {
  stage: string | null;
  game: number | null;
  games: number | null;
  secondsLeft: number | null;
  tick: number | null;
  hidden: number | null;
  seen: number | null;
}

export function fieldsFromSummary(match: MatchSummary): ScoreFields {
  return {
    stage: t(stageKey(match)),
    game: match.game || null,
    games: match.games || null,
    secondsLeft: match.phase === 'playing' ? secondsLeft(match.phaseTicksLeft) : null,
    tick: match.tick,
    hidden: match.hiddenTicks,
    seen: match.seenTicks,
  };
}

// Game, stage, time left, tick and the hidden-vs-seen bar; built once, then patched in place.
export class Scoreboard {
  readonly element: HTMLElement;
  private readonly game = h('span', { 'data-testid': 'score-game' });
  private readonly stage = h('span', { 'data-testid': 'score-stage' });
  private readonly left = h('span', { 'data-testid': 'score-left' });
  private readonly tick = h('span', { 'data-testid': 'score-tick' });
  private readonly hidden = h('span', { class: 'side-hider', 'data-testid': 'score-hidden' });
  private readonly seen = h('span', { class: 'side-seeker', 'data-testid': 'score-seen' });
  private readonly bar = h('div', { class: 'hidden-bar-fill' });
  private readonly barOuter = h('div', { class: 'hidden-bar', role: 'img' }, this.bar);
  readonly extra = h('span', { class: 'score-extra', 'data-testid': 'score-board' });

  constructor(withBoard = true) {
    this.element = h('dl', { class: 'scoreboard', 'data-testid': 'scoreboard' },
      h('div', {}, h('dt', { class: 'label-game' }), h('dd', {}, this.game)),
      h('div', {}, h('dt', { class: 'label-stage' }), h('dd', {}, this.stage)),
      h('div', {}, h('dt', { class: 'label-left' }), h('dd', {}, this.left)),
      h('div', {}, h('dt', { class: 'label-tick' }), h('dd', {}, this.tick)),
      h('div', { class: 'score-wide' }, h('dt', { class: 'label-hidden' }), h('dd', {}, this.hidden, ' : ', this.seen, this.barOuter)),
      withBoard ? h('div', { class: 'score-wide' }, h('dt', { class: 'label-board' }), h('dd', {}, this.extra)) : null,
    );
    this.relabel();
  }

  relabel(): void {
    const label = (cls: string, text: string) => {
      const el = this.element.querySelector<HTMLElement>(`.${cls}`);
      if (el) setText(el, text);
    };
    label('label-game', t('hns.score.game'));
    label('label-stage', t('hns.score.stage'));
    label('label-left', t('hns.score.left'));
    label('label-tick', t('hns.score.tick'));
    label('label-hidden', t('hns.score.hiddenSeen'));
    label('label-board', t('hns.score.board'));
  }

  update(fields: ScoreFields): void {
    setText(this.game, fields.game !== null ? t('hns.score.gameOf', { game: fields.game, games: fields.games ?? '?' }) : '—');
    setText(this.stage, fields.stage ?? '—');
    setText(this.left, fields.secondsLeft !== null ? t('hns.score.seconds', { seconds: fields.secondsLeft }) : '—');
    setText(this.tick, fields.tick !== null ? String(fields.tick) : '—');
    setText(this.hidden, t('hns.score.hidden', { ticks: dash(fields.hidden) }));
    setText(this.seen, t('hns.score.seen', { ticks: dash(fields.seen) }));
    const share = hiddenShare(fields.hidden ?? 0, fields.seen ?? 0);
    this.bar.style.width = `${Math.round((share ?? 0.5) * 100)}%`;
    this.barOuter.setAttribute('aria-label', share === null ? '—' : `${Math.round(share * 100)}%`);
  }
}

// "3 hiders · 3 seekers · seen now: 1 (Cog3) · locked 2 of 8": what the global board's labels show.
export function boardText(board: Board, spottedNames: string[]): string {
  return [
    t('hns.board.hiders', { count: board.hiders }),
    t('hns.board.seekers', { count: board.seekers }),
    t('hns.board.seenNow', { count: board.spotted.length }) + (spottedNames.length ? ` (${spottedNames.join(', ')})` : ''),
    t('hns.board.locked', { locked: board.locked, objects: board.objects }),
  ].join(' · ');
}
