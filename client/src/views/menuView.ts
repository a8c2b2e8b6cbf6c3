// The main menu: the school list with its limit, create, open and delete.
import { accessSignature, canManage, credential, forgetOwner, onAccessChange, pruneOwners } from '../access/access';
import { accessProblemKey, authorizationHeaders } from '../access/permissions';
import { deleteSchool, listSchools } from '../api/schools';
import type { SchoolList, SchoolSummary } from '../api/schools';
import type { Problem } from '../api/problems';
import { navigate } from '../app/router';
import { formatGameDate, formatGameTime, speedLabel } from '../format/dateTime';
import { language, onLanguageChange, t } from '../i18n/i18n';
import { confirmDialog } from '../ui/dialog';
import { h, replaceChildren } from '../ui/dom';
import { updateDebug } from '../app/debugState';
import { showNotice } from '../app/notices';
import { openCreateSchoolDialog } from './createSchoolDialog';
import { problemMessage } from './problemText';
import type { View } from './view';

// Keeps the listed in-game times and running states fresh while the menu is open.
export const MENU_REFRESH_MS = 3000;

type ListState = { phase: 'loading' } | { phase: 'error'; problem: Problem } | { phase: 'ready'; list: SchoolList };

export class MenuView implements View {
  readonly element = h('section', { class: 'view menu-view', 'aria-labelledby': 'menu-heading', 'data-testid': 'menu' });
  private state: ListState = { phase: 'loading' };
  private refreshTimer: ReturnType<typeof setInterval>;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeAccess: () => void;
  private dialogOpen = false;
  private renderedSignature = '';
  private destroyed = false;

  constructor() {
    this.unsubscribe = onLanguageChange(() => this.render());
    this.unsubscribeAccess = onAccessChange(() => this.render());
    this.render();
    void this.load();
    this.refreshTimer = setInterval(() => {
      if (!this.dialogOpen) void this.load();
    }, MENU_REFRESH_MS);
    updateDebug({ view: 'menu', school: null, arena: null });
  }

  destroy(): void {
    this.destroyed = true;
    clearInterval(this.refreshTimer);
    this.unsubscribe();
    this.unsubscribeAccess();
  }

  private async load(): Promise<void> {
    const requestedAt = Date.now();
    const result = await listSchools();
    if (result.ok) pruneOwners('school', normaliseList(result.data).schools.map((s) => s.id), requestedAt);
    if (this.destroyed) return;
    if (result.ok) this.state = { phase: 'ready', list: normaliseList(result.data) };
    else if (this.state.phase !== 'ready') this.state = { phase: 'error', problem: result.problem };
    this.render();
  }

  // What decides the page's structure; when only times and states change, cards are patched in
  // place so a periodic refresh never replaces a button under the pointer mid-click.
  private signature(): string {
    const state = this.state;
    if (state.phase !== 'ready') return `${state.phase}|${language()}`;
    const { list } = state;
    return JSON.stringify([language(), accessSignature(), list.maxSchools, list.schools.map((s) => [s.id, s.name, canManage('school', s.id)])]);
  }

  private render(): void {
    const signature = this.signature();
    if (signature === this.renderedSignature && this.state.phase === 'ready') {
      this.patchCards(this.state.list);
      return;
    }
    this.renderedSignature = signature;
    const focusedKey = (document.activeElement as HTMLElement | null)?.dataset?.focusKey;
    const heading = h('h1', { id: 'menu-heading', text: t('menu.heading') });
    const state = this.state;
    if (state.phase === 'loading') {
      replaceChildren(this.element, heading, h('p', { class: 'state state-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('common.loading')));
      return;
    }
    if (state.phase === 'error') {
      replaceChildren(
        this.element,
        heading,
        h('div', { class: 'state state-error', 'data-testid': 'menu-error' },
          h('p', { text: t('menu.loadFailed') }),
          problemMessage(state.problem).element,
          h('button', { type: 'button', class: 'button', text: t('common.retry'), onclick: () => void this.load() }),
        ),
      );
      return;
    }
    const { list } = state;
    const atLimit = list.schools.length >= list.maxSchools;
    const limitNoteId = 'menu-limit-note';
    const toolbar = h(
      'div',
      { class: 'menu-toolbar' },
      h('p', { class: 'school-count' },
        h('span', { class: 'visually-hidden', text: `${t('menu.countLabel')}: ` }),
        h('span', { 'data-testid': 'school-count', text: t('menu.count', { count: list.schools.length, max: list.maxSchools }) }),
      ),
      h('button', {
        type: 'button',
        class: 'button button-primary',
        'data-testid': 'create-school',
        'data-focus-key': 'create',
        text: t('menu.create'),
        disabled: atLimit,
        'aria-describedby': atLimit ? limitNoteId : undefined,
        onclick: () => this.openCreate(list),
      }),
    );
    const limitNote = atLimit ? h('p', { id: limitNoteId, class: 'note note-warning', 'data-testid': 'limit-note', text: t('menu.limitReached', { max: list.maxSchools }) }) : null;
    const body = list.schools.length === 0
      ? h('p', { class: 'state state-empty', 'data-testid': 'menu-empty', text: t('menu.empty') })
      : h('ul', { class: 'school-list', 'data-testid': 'school-list' }, list.schools.map((school) => this.schoolCard(school)));
    replaceChildren(this.element, heading, toolbar, limitNote, body);
    if (focusedKey) this.element.querySelector<HTMLElement>(`[data-focus-key="${focusedKey}"]`)?.focus();
  }

  private patchCards(list: SchoolList): void {
    for (const school of list.schools) {
      const card = this.element.querySelector<HTMLElement>(`[data-school-id="${school.id}"]`);
      if (!card) continue;
      this.fillLiveFields(card, school);
    }
  }

  private fillLiveFields(card: HTMLElement, school: SchoolSummary): void {
    const time = Date.parse(school.gameTime);
    const set = (selector: string, text: string, className?: string) => {
      const element = card.querySelector<HTMLElement>(selector);
      if (!element) return;
      if (element.textContent !== text) element.textContent = text;
      if (className !== undefined) element.className = className;
    };
    set('.school-time', Number.isNaN(time) ? '—' : `${formatGameDate(time, language())}, ${formatGameTime(time)}`);
    set('.run-badge', school.running ? t('menu.running') : t('menu.paused'), school.running ? 'badge run-badge badge-running' : 'badge run-badge badge-paused');
    set('.speed-badge', t('menu.speed', { speed: speedLabel(school.speedIndex) }));
    card.dataset.running = String(school.running);
  }

  private schoolCard(school: SchoolSummary): HTMLElement {
    const nameId = `school-name-${school.id}`;
    const card = h(
      'li',
      { class: 'school-card', 'data-testid': 'school-card', 'data-school-id': school.id, 'aria-labelledby': nameId },
      h('h2', { id: nameId, class: 'school-name', text: school.name }),
      h('p', { class: 'school-time', 'data-testid': 'school-time' }),
      h('p', { class: 'school-status' },
        h('span', { class: 'badge run-badge' }),
        ' ',
        h('span', { class: 'badge speed-badge' }),
      ),
      h('div', { class: 'card-actions' },
        h('button', {
          type: 'button',
          class: 'button button-primary',
          text: t('menu.open'),
          'data-testid': 'open-school',
          'data-focus-key': `open-${school.id}`,
          'aria-describedby': nameId,
          onclick: () => navigate({ name: 'school', id: school.id }),
        }),
        // In owners mode only the owner and the operator are offered it.
        canManage('school', school.id)
          ? h('button', {
            type: 'button',
            class: 'button button-danger',
            text: t('common.delete'),
            'data-testid': 'delete-school',
            'data-focus-key': `delete-${school.id}`,
            'aria-describedby': nameId,
            onclick: () => void this.confirmDelete(school),
          })
          : null,
      ),
    );
    this.fillLiveFields(card, school);
    return card;
  }

  private openCreate(list: SchoolList): void {
    this.dialogOpen = true;
    openCreateSchoolDialog({
      defaultStartDate: list.defaultStartDate,
      onCreated: (school) => {
        void this.load().then(() => {
          this.element.querySelector<HTMLElement>(`[data-focus-key="open-${school.id}"]`)?.focus();
        });
      },
      onClosed: () => {
        this.dialogOpen = false;
        void this.load();
      },
    });
  }

  private async confirmDelete(school: SchoolSummary): Promise<void> {
    this.dialogOpen = true;
    const confirmed = await confirmDialog({
      title: t('menu.deleteTitle'),
      message: t('menu.deleteConfirm', { name: school.name }),
      confirmLabel: t('common.delete'),
      testId: 'confirm-delete',
    });
    this.dialogOpen = false;
    if (!confirmed) return;
    const sent = credential('school', school.id);
    const result = await deleteSchool(school.id, authorizationHeaders(sent));
    if (result.ok || result.problem.status === 404) {
      forgetOwner('school', school.id);
      showNotice({ key: 'menu.deleted', params: { name: school.name }, tone: 'info' });
    } else {
      showNotice({ key: accessProblemKey(result.problem, sent.kind, 'school') ?? 'menu.deleteFailed', tone: 'error' });
    }
    await this.load();
  }
}

function normaliseList(raw: SchoolList): SchoolList {
  const schools = Array.isArray(raw?.schools) ? raw.schools : [];
  return {
    maxSchools: typeof raw?.maxSchools === 'number' ? raw.maxSchools : 0,
    defaultStartDate: typeof raw?.defaultStartDate === 'string' ? raw.defaultStartDate : '2012-04-03T06:00:00Z',
    gameMinutesPerRealSecond: typeof raw?.gameMinutesPerRealSecond === 'number' ? raw.gameMinutesPerRealSecond : 5,
    schools: schools.filter((s) => typeof s?.id === 'number').map((s) => ({
      id: s.id,
      name: typeof s.name === 'string' ? s.name : `#${s.id}`,
      gameTime: typeof s.gameTime === 'string' ? s.gameTime : '',
      running: s.running === true,
      speedIndex: typeof s.speedIndex === 'number' ? s.speedIndex : 1,
    })),
  };
}
