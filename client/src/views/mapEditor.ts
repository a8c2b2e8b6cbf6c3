// The create dialog's map editor: the catalog's default map as a tree the player can change.
import type { Catalog, MapNodeDef, SchoolMap } from '../api/catalog';
import { MAX_NODE_NAME_CHARS, addNode, childrenOf, displayName, kindOf, placeableUnder, removeNode, renameNode, rootsOf } from '../api/mapEditing';
import { t } from '../i18n/i18n';
import type { MessageKey } from '../i18n/i18n';
import { h, replaceChildren, uniqueId } from '../ui/dom';

export class MapEditor {
  readonly element = h('div', { class: 'map-editor', 'data-testid': 'map-editor' });
  private catalog: Catalog | null = null;
  private map: SchoolMap = { nodes: [], links: [] };
  private focusAfterRender: string | null = null;

  constructor(private readonly onEdit: (map: SchoolMap) => void) {}

  show(catalog: Catalog, map: SchoolMap): void {
    this.catalog = catalog;
    this.map = map;
    this.render();
  }

  current(): SchoolMap {
    return this.map;
  }

  private edit(next: SchoolMap, focusKey: string | null): void {
    this.map = next;
    this.focusAfterRender = focusKey;
    this.onEdit(next);
    this.render();
  }

  render(): void {
    const catalog = this.catalog;
    if (!catalog) return;
    const tree = h('ul', { class: 'tree', role: 'list' }, rootsOf(this.map).map((node) => this.nodeItem(catalog, node, 0)));
    replaceChildren(
      this.element,
      h('div', { class: 'map-editor-toolbar' },
        h('span', { class: 'note', 'data-testid': 'map-node-count', text: t('map.nodeCount', { count: this.map.nodes.length }) }),
        h('button', { type: 'button', class: 'button button-small', text: t('map.reset'), onclick: () => this.edit(catalog.defaultMap, null) }),
      ),
      tree,
    );
    if (this.focusAfterRender) {
      this.element.querySelector<HTMLElement>(`[data-focus-key="${this.focusAfterRender}"]`)?.focus();
      this.focusAfterRender = null;
    }
  }

  private nodeItem(catalog: Catalog, node: MapNodeDef, depth: number): HTMLElement {
    const kind = kindOf(catalog, node);
    const name = displayName(catalog, node);
    const nameInputId = uniqueId('map-name');
    const children = childrenOf(this.map, node.id);
    const childTypes = placeableUnder(catalog, node);
    const typeSelectId = uniqueId('map-type');
    const typeSelect = h('select', { id: typeSelectId, class: 'input input-small', 'data-testid': 'map-add-type', 'data-parent-id': node.id },
      childTypes.map((type) => h('option', { value: type.id, text: type.label })));
    const adder = childTypes.length === 0 ? null : h('div', { class: 'map-add' },
      h('label', { for: typeSelectId, class: 'visually-hidden', text: t('map.childType') }),
      typeSelect,
      h('button', {
        type: 'button',
        class: 'button button-small',
        text: t('map.add'),
        'aria-label': t('map.addChild', { name }),
        'data-testid': 'map-add',
        'data-parent-id': node.id,
        onclick: () => {
          const { map, id } = addNode(this.map, catalog, node.id, typeSelect.value);
          this.edit(map, `name-${id}`);
        },
      }));
    const isRoot = depth === 0;
    return h(
      'li',
      { class: `tree-node tree-depth-${Math.min(depth, 3)}`, 'data-node-id': node.id, 'data-kind': kind ?? 'unknown', 'data-testid': 'map-node' },
      h('div', { class: 'tree-row' },
        h('span', { class: `kind-tag kind-${kind ?? 'unknown'}`, text: kind ? t(`kind.${kind}` as MessageKey) : node.def }),
        h('label', { for: nameInputId, class: 'visually-hidden', text: t('map.renameLabel', { name }) }),
        h('input', {
          id: nameInputId,
          class: 'input input-small',
          value: node.name,
          placeholder: displayName(catalog, { ...node, name: '' }),
          maxlength: MAX_NODE_NAME_CHARS,
          'data-focus-key': `name-${node.id}`,
          'data-testid': 'map-node-name',
          onchange: (event: Event) => {
            this.map = renameNode(this.map, node.id, (event.target as HTMLInputElement).value);
            this.onEdit(this.map);
          },
        }),
        isRoot ? null : h('button', {
          type: 'button',
          class: 'button button-small button-danger',
          text: t('map.remove'),
          'aria-label': t('map.removeLabel', { name }),
          'data-testid': 'map-remove',
          onclick: () => this.edit(removeNode(this.map, node.id), null),
        }),
      ),
      adder,
      children.length > 0 ? h('ul', { class: 'tree', role: 'list' }, children.map((child) => this.nodeItem(catalog, child, depth + 1))) : null,
    );
  }
}
