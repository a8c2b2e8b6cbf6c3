// The create dialog: name (with a random suggestion), start date, packs and the map editor.
import { rememberOwner } from '../access/access';
import { fetchCatalog, mapToJson } from '../api/catalog';
import type { Catalog, SchoolMap } from '../api/catalog';
import type { Problem, ProblemField } from '../api/problems';
import { MAX_SCHOOL_NAME_CHARS, createSchool, listMods, randomSchoolName } from '../api/schools';
import type { ModInfo, SchoolSummary } from '../api/schools';
import { fromDateInputValue, toDateInputValue } from '../format/dateTime';
import { language, onLanguageChange, t } from '../i18n/i18n';
import { openModal } from '../ui/dialog';
import { h, replaceChildren } from '../ui/dom';
import { MapEditor } from './mapEditor';
import { problemMessage } from './problemText';

interface Options {
  defaultStartDate: string;
  onCreated(school: SchoolSummary): void;
  onClosed(): void;
}

type Loadable<T> = { phase: 'loading' } | { phase: 'error'; problem: Problem } | { phase: 'ready'; value: T };

export function openCreateSchoolDialog(options: Options): void {
  const form = new CreateSchoolForm(options);
  const modal = openModal({
    title: t('create.title'),
    testId: 'create-dialog',
    wide: true,
    onClose: () => {
      form.destroy();
      options.onClosed();
    },
  });
  form.attach(modal.body, () => modal.close(), (title) => modal.setTitle(title));
}

class CreateSchoolForm {
  private name = '';
  private startDay: string;
  private mods: Loadable<ModInfo[]> = { phase: 'loading' };
  private enabledExtras = new Set<string>();
  private catalog: Loadable<Catalog> = { phase: 'loading' };
  private map: SchoolMap | null = null;
  private mapEdited = false; // an untouched map is sent as null: the server's default for the packs
  private problems = new Map<ProblemField, Problem>();
  private submitting = false;
  private nameEdits = 0; // a suggestion that arrives after the player typed must not overwrite it
  private host: HTMLElement | null = null;
  private close: () => void = () => {};
  private setTitle: (title: string) => void = () => {};
  private readonly mapEditor = new MapEditor((map) => {
    this.map = map;
    this.mapEdited = true;
    this.problems.delete('map');
  });
  private readonly unsubscribe: () => void;
  private catalogRequest = 0;

  constructor(private readonly options: Options) {
    this.startDay = toDateInputValue(options.defaultStartDate);
    this.unsubscribe = onLanguageChange(() => {
      this.setTitle(t('create.title'));
      this.render();
      void this.loadMods(); // pack titles and catalog labels come in the UI language
      void this.loadCatalog();
    });
  }

  attach(host: HTMLElement, close: () => void, setTitle: (title: string) => void): void {
    this.host = host;
    this.close = close;
    this.setTitle = setTitle;
    this.render();
    host.querySelector<HTMLInputElement>('#create-name')?.focus();
    void this.loadMods();
    void this.loadCatalog();
  }

  destroy(): void {
    this.unsubscribe();
    this.host = null;
  }

  private async loadMods(): Promise<void> {
    const result = await listMods(language());
    this.mods = result.ok ? { phase: 'ready', value: result.data } : { phase: 'error', problem: result.problem };
    this.render();
  }

  private async loadCatalog(): Promise<void> {
    const request = ++this.catalogRequest;
    this.catalog = { phase: 'loading' };
    this.render();
    const result = await fetchCatalog(language(), [...this.enabledExtras]);
    if (request !== this.catalogRequest || !this.host) return; // a newer request superseded this one
    if (!result.ok) {
      this.catalog = { phase: 'error', problem: result.problem };
    } else {
      this.catalog = { phase: 'ready', value: result.data };
      if (!this.mapEdited || !this.map) this.map = result.data.defaultMap;
      this.mapEditor.show(result.data, this.map);
    }
    this.render();
  }

  private async suggestName(): Promise<void> {
    const editsBefore = this.nameEdits;
    const result = await randomSchoolName(language());
    if (this.nameEdits !== editsBefore) return;
    if (result.ok) {
      this.name = result.data;
      this.problems.delete('name');
    } else {
      this.problems.set('name', result.problem);
    }
    this.render();
    this.host?.querySelector<HTMLInputElement>('#create-name')?.focus();
  }

  private async submit(): Promise<void> {
    if (this.submitting) return;
    const startDate = fromDateInputValue(this.startDay, this.options.defaultStartDate);
    this.problems.clear();
    if (!startDate) {
      this.problems.set('startDate', { status: 0, code: 'invalid-start-date' });
      this.render();
      return;
    }
    this.submitting = true;
    this.render();
    const result = await createSchool({
      name: this.name,
      startDate,
      modIds: [...this.enabledExtras],
      map: this.mapEdited && this.map ? (mapToJson(this.map) as SchoolMap) : null,
    });
    this.submitting = false;
    if (result.ok) {
      rememberOwner('school', result.data.id, result.data.ownerToken);
      this.close();
      this.options.onCreated(result.data);
      return;
    }
    this.problems.set(problemMessage(result.problem).field, result.problem);
    this.render();
    this.focusFirstProblem();
  }

  private focusFirstProblem(): void {
    const order: Array<[ProblemField, string]> = [['name', '#create-name'], ['startDate', '#create-start'], ['mods', '#create-packs input:not([disabled])'], ['form', '#create-submit']];
    for (const [field, selector] of order) {
      if (this.problems.has(field)) {
        this.host?.querySelector<HTMLElement>(selector)?.focus();
        return;
      }
    }
  }

  private fieldProblem(field: ProblemField, id: string): HTMLElement | null {
    const problem = this.problems.get(field);
    if (!problem) return null;
    const element = problemMessage(problem).element;
    element.id = id;
    element.classList.add('field-error');
    return element;
  }

  private render(): void {
    const host = this.host;
    if (!host) return;
    const focusedId = (document.activeElement as HTMLElement | null)?.id;
    const nameChars = [...this.name].length;
    const nameError = this.fieldProblem('name', 'create-name-error');
    const startError = this.fieldProblem('startDate', 'create-start-error');
    const modsError = this.fieldProblem('mods', 'create-mods-error');
    const mapError = this.fieldProblem('map', 'create-map-error');
    const formError = this.fieldProblem('form', 'create-form-error');

    const nameField = h('div', { class: 'field' },
      h('label', { for: 'create-name', text: t('create.name') }),
      h('div', { class: 'field-row' },
        h('input', {
          id: 'create-name',
          class: 'input',
          type: 'text',
          value: this.name,
          autocomplete: 'off',
          'data-testid': 'create-name',
          'aria-invalid': nameError ? 'true' : undefined,
          'aria-describedby': nameError ? 'create-name-hint create-name-error' : 'create-name-hint',
          oninput: (event: Event) => {
            this.name = (event.target as HTMLInputElement).value;
            this.nameEdits += 1;
            counter.textContent = `${[...this.name].length} / ${MAX_SCHOOL_NAME_CHARS}`;
            counter.classList.toggle('over', [...this.name].length > MAX_SCHOOL_NAME_CHARS);
          },
        }),
        h('button', { type: 'button', id: 'create-random', class: 'button', text: t('create.randomName'), 'data-testid': 'random-name', onclick: () => void this.suggestName() }),
      ),
      h('p', { id: 'create-name-hint', class: 'hint' },
        t('create.nameHint', { max: MAX_SCHOOL_NAME_CHARS }), ' '),
      nameError,
    );
    const counter = h('span', { class: nameChars > MAX_SCHOOL_NAME_CHARS ? 'counter over' : 'counter', text: `${nameChars} / ${MAX_SCHOOL_NAME_CHARS}` });
    nameField.querySelector('#create-name-hint')?.append(counter);

    const startField = h('div', { class: 'field' },
      h('label', { for: 'create-start', text: t('create.startDate') }),
      h('input', {
        id: 'create-start',
        class: 'input',
        type: 'date',
        min: '1900-01-01',
        max: '2999-12-31',
        value: this.startDay,
        'data-testid': 'create-start',
        'aria-invalid': startError ? 'true' : undefined,
        'aria-describedby': startError ? 'create-start-error' : undefined,
        onchange: (event: Event) => (this.startDay = (event.target as HTMLInputElement).value),
      }),
      startError,
    );

    const packsField = h('fieldset', { class: 'field', id: 'create-packs' },
      h('legend', { text: t('create.packs') }),
      this.packSwitches(),
      modsError,
    );

    const mapField = h('fieldset', { class: 'field' },
      h('legend', { text: t('create.map') }),
      this.catalog.phase === 'loading'
        ? h('p', { class: 'state state-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('create.mapLoading'))
        : this.catalog.phase === 'error'
          ? h('div', { class: 'state state-error' },
              h('p', { text: t('create.mapFailed') }),
              problemMessage(this.catalog.problem).element,
              h('button', { type: 'button', class: 'button', text: t('common.retry'), onclick: () => void this.loadCatalog() }))
          : this.mapEditor.element,
      mapError,
    );
    if (this.catalog.phase === 'ready') this.mapEditor.render();

    const actions = h('div', { class: 'dialog-actions' },
      h('button', { type: 'button', class: 'button', text: t('common.cancel'), onclick: () => this.close() }),
      h('button', {
        type: 'submit',
        id: 'create-submit',
        class: 'button button-primary',
        'data-testid': 'create-submit',
        disabled: this.submitting,
        text: this.submitting ? t('create.submitting') : t('create.submit'),
      }),
    );

    const form = h('form', {
      class: 'create-form',
      novalidate: true,
      onsubmit: (event: Event) => {
        event.preventDefault();
        void this.submit();
      },
    }, nameField, startField, packsField, mapField, formError, actions);
    replaceChildren(host, form);
    if (focusedId) document.getElementById(focusedId)?.focus();
  }

  private packSwitches(): HTMLElement {
    if (this.mods.phase === 'loading') return h('p', { class: 'state state-loading', role: 'status', text: t('create.packsLoading') });
    if (this.mods.phase === 'error') return problemMessage(this.mods.problem).element;
    const mods = this.mods.value.some((m) => m.id === 'core') ? this.mods.value : [{ id: 'core', required: true, title: 'core' }, ...this.mods.value];
    return h('ul', { class: 'switch-list' }, mods.map((mod) => {
      const id = `pack-${mod.id}`;
      return h('li', {},
        h('label', { class: 'switch', for: id },
          h('input', {
            id,
            type: 'checkbox',
            role: 'switch',
            'data-testid': 'pack-switch',
            'data-pack': mod.id,
            checked: mod.required || this.enabledExtras.has(mod.id),
            disabled: mod.required,
            onchange: (event: Event) => {
              if ((event.target as HTMLInputElement).checked) this.enabledExtras.add(mod.id);
              else this.enabledExtras.delete(mod.id);
              this.problems.delete('mods');
              this.mapEdited = false; // a different pack set has a different default map
              this.map = null;
              void this.loadCatalog();
            },
          }),
          h('span', { class: 'switch-track', 'aria-hidden': 'true' }),
          h('span', { text: mod.title }),
          mod.required ? h('span', { class: 'hint', text: ` (${t('create.packRequired')})` }) : null,
        ));
    }));
  }
}
