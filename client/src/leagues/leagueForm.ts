// The start-a-league form: entrants added and removed (name, kind, a prompt for prompt entrants),
// matches per pairing, variant and seed. Typing patches the draft in place; adding, removing or
// changing a kind redraws the form and puts the focus back where it belongs.
import type { Problem } from '../api/problems';
import { t } from '../i18n/i18n';
import type { MessageKey } from '../i18n/i18n';
import { h, replaceChildren } from '../ui/dom';
import { problemMessage } from '../views/problemText';
import { ENTRANT_KINDS } from './api';
import type { CreateLeagueRequest } from './api';
import { MAX_FORM_ENTRANTS, MAX_MATCHES, MAX_PROMPT_BYTES, MIN_ENTRANTS, addEntrant, defaultDraft, isEntrantKind, parseMatches, planned, removeEntrant, toRequest, updateEntrant } from './draft';
import type { DraftError, EntrantDraft, LeagueDraft } from './draft';

export const PREFERRED_VARIANT = 'certification';

export class LeagueForm {
  readonly element = h('form', { class: 'hns-create league-form', 'data-testid': 'league-form', novalidate: true });
  private draft: LeagueDraft;
  private variants: string[];
  private busy = false;
  private errors: DraftError[] = [];
  private problem: Problem | null = null;
  private readonly plannedText = h('p', { class: 'hint', 'data-testid': 'league-planned', 'aria-live': 'polite' });

  constructor(variants: string[], private readonly onSubmit: (request: CreateLeagueRequest) => void) {
    this.variants = variants;
    this.draft = defaultDraft(variants.includes(PREFERRED_VARIANT) ? PREFERRED_VARIANT : variants[0] ?? PREFERRED_VARIANT);
    this.element.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.render();
  }

  setVariants(variants: string[]): void {
    if (variants.length === 0) return;
    this.variants = variants;
    if (!variants.includes(this.draft.variant)) this.draft = { ...this.draft, variant: variants.includes(PREFERRED_VARIANT) ? PREFERRED_VARIANT : variants[0]! };
    this.render();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.render();
  }

  setProblem(problem: Problem | null): void {
    this.problem = problem;
    this.render();
  }

  relabel(): void {
    this.render();
  }

  private submit(): void {
    if (this.busy) return;
    const checked = toRequest(this.draft);
    this.problem = null;
    this.errors = checked.ok ? [] : checked.errors;
    this.render();
    if (!checked.ok) {
      this.element.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this.onSubmit(checked.request);
  }

  private change(next: LeagueDraft, focusKey?: string): void {
    this.draft = next;
    this.errors = [];
    this.render(focusKey);
  }

  private invalid(field: DraftError['field'], index?: number): boolean {
    return this.errors.some((e) => e.field === field && (index === undefined || e.index === index));
  }

  private paintPlanned(): void {
    const matches = parseMatches(this.draft.matches);
    const plan = planned(this.draft.entrants.length, matches ?? 0);
    this.plannedText.textContent = matches === null
      ? ''
      : t('leagues.create.planned', { pairings: plan.pairings, matches, total: plan.total });
  }

  private entrantRow(entrant: EntrantDraft, index: number): HTMLElement {
    const name = h('input', {
      class: 'input',
      type: 'text',
      maxlength: 32,
      value: entrant.name,
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-label': `${t('leagues.create.name')} ${index + 1}`,
      'aria-invalid': this.invalid('name', index) ? 'true' : undefined,
      'data-testid': 'league-entrant-name',
      'data-focus-key': `name-${entrant.key}`,
      oninput: (e: Event) => (this.draft = updateEntrant(this.draft, entrant.key, { name: (e.target as HTMLInputElement).value })),
    });
    const kind = h('select', {
      class: 'input',
      'aria-label': `${t('leagues.create.kind')} ${index + 1}`,
      'data-testid': 'league-entrant-kind',
      'data-focus-key': `kind-${entrant.key}`,
      onchange: (e: Event) => {
        const value = (e.target as HTMLSelectElement).value;
        if (isEntrantKind(value)) this.change(updateEntrant(this.draft, entrant.key, { kind: value }), `kind-${entrant.key}`);
      },
    }, ENTRANT_KINDS.map((k) => h('option', { value: k, selected: k === entrant.kind, text: t(`leagues.kind.${k}` as MessageKey) })));
    const prompt = entrant.kind === 'prompt'
      ? h('textarea', {
        class: 'input league-prompt',
        rows: 3,
        maxlength: MAX_PROMPT_BYTES,
        placeholder: t('leagues.create.promptPlaceholder'),
        'aria-label': `${t('leagues.create.prompt')} ${index + 1}`,
        'aria-invalid': this.invalid('prompt', index) ? 'true' : undefined,
        'data-testid': 'league-entrant-prompt',
        'data-focus-key': `prompt-${entrant.key}`,
        oninput: (e: Event) => (this.draft = updateEntrant(this.draft, entrant.key, { prompt: (e.target as HTMLTextAreaElement).value })),
      })
      : null;
    if (prompt) prompt.value = entrant.prompt;
    const canRemove = this.draft.entrants.length > MIN_ENTRANTS;
    return h('li', { class: 'league-entrant-row', 'data-testid': 'league-entrant-draft' },
      h('span', { class: 'league-entrant-index muted', text: `${index + 1}.` }),
      name,
      kind,
      h('button', {
        type: 'button',
        class: 'button button-small',
        disabled: !canRemove,
        'aria-label': t('leagues.create.removeLabel', { name: entrant.name || String(index + 1) }),
        'data-testid': 'league-entrant-remove',
        text: t('leagues.create.remove'),
        onclick: () => this.change(removeEntrant(this.draft, entrant.key), 'add'),
      }),
      prompt,
    );
  }

  private render(focusKey?: string): void {
    const keep = focusKey ?? (document.activeElement as HTMLElement | null)?.dataset?.focusKey;
    const draft = this.draft;
    const matches = h('input', {
      class: 'input input-small',
      type: 'number',
      min: 1,
      max: MAX_MATCHES,
      step: 1,
      value: draft.matches,
      'aria-invalid': this.invalid('matches') ? 'true' : undefined,
      'data-testid': 'league-matches',
      'data-focus-key': 'matches',
      oninput: (e: Event) => {
        this.draft = { ...this.draft, matches: (e.target as HTMLInputElement).value };
        this.paintPlanned();
      },
    });
    const variant = h('select', {
      class: 'input',
      'data-testid': 'league-variant',
      'data-focus-key': 'variant',
      onchange: (e: Event) => (this.draft = { ...this.draft, variant: (e.target as HTMLSelectElement).value }),
    }, this.variants.map((v) => h('option', { value: v, text: v, selected: v === draft.variant })));
    const seed = h('input', {
      class: 'input input-small',
      type: 'text',
      inputmode: 'numeric',
      value: draft.seed,
      'aria-invalid': this.invalid('seed') ? 'true' : undefined,
      'data-testid': 'league-seed',
      'data-focus-key': 'seed',
      oninput: (e: Event) => (this.draft = { ...this.draft, seed: (e.target as HTMLInputElement).value }),
    });
    this.paintPlanned();
    replaceChildren(this.element,
      h('h2', { class: 'league-form-title', text: t('leagues.create.title') }),
      h('fieldset', { class: 'league-entrants' },
        h('legend', { text: t('leagues.create.entrants') }),
        h('ol', { class: 'league-entrant-list' }, draft.entrants.map((e, i) => this.entrantRow(e, i))),
        h('button', {
          type: 'button',
          class: 'button button-small',
          disabled: draft.entrants.length >= MAX_FORM_ENTRANTS,
          'data-testid': 'league-entrant-add',
          'data-focus-key': 'add',
          text: t('leagues.create.add'),
          onclick: () => {
            const next = addEntrant(this.draft);
            const added = next.entrants[next.entrants.length - 1];
            this.change(next, added ? `name-${added.key}` : 'add');
          },
        }),
      ),
      h('div', { class: 'league-form-options' },
        h('label', {}, t('leagues.create.matches'), matches),
        h('label', {}, t('leagues.create.variant'), variant),
        h('label', {}, t('leagues.create.seed'), seed),
        h('button', {
          type: 'submit',
          class: 'button button-primary',
          disabled: this.busy,
          'data-testid': 'league-create',
          'data-focus-key': 'create',
          text: this.busy ? t('leagues.create.submitting') : t('leagues.create.submit'),
        }),
      ),
      this.plannedText,
      h('p', { class: 'hint', text: t('leagues.create.hint') }),
      this.errors.length
        ? h('ul', { class: 'problem league-form-errors', role: 'alert', 'data-testid': 'league-form-errors' },
          this.errors.map((e) => h('li', { text: t(e.key, e.params) })))
        : null,
      this.problem ? h('div', { 'data-testid': 'league-create-problem' }, problemMessage(this.problem).element) : null,
    );
    if (keep) this.element.querySelector<HTMLElement>(`[data-focus-key="${keep}"]`)?.focus();
  }
}
