// Pure edits of a school map for the create dialog; each returns a new map and keeps it connected.
import { CHILD_KIND, LINK_KIND_FOR_CHILD } from './catalog';
import type { Catalog, CatalogType, MapNodeDef, NodeKindName, SchoolMap } from './catalog';

export const MAX_NODE_NAME_CHARS = 60; // the server's kMaxNodeNameChars
const CORRIDOR_HINT = 'corridor';

export function typeOf(catalog: Catalog, node: MapNodeDef): CatalogType | undefined {
  return catalog.types.find((type) => type.id === node.def);
}

export function kindOf(catalog: Catalog, node: MapNodeDef): NodeKindName | undefined {
  return typeOf(catalog, node)?.kind;
}

export function displayName(catalog: Catalog, node: MapNodeDef): string {
  return node.name || typeOf(catalog, node)?.label || node.def || node.id;
}

export function childrenOf(map: SchoolMap, parentId: string): MapNodeDef[] {
  return map.nodes.filter((node) => node.parent === parentId);
}

export function rootsOf(map: SchoolMap): MapNodeDef[] {
  const ids = new Set(map.nodes.map((n) => n.id));
  return map.nodes.filter((node) => node.parent === '' || !ids.has(node.parent));
}

// The types that may be placed under a node, by the tree's kind order.
export function placeableUnder(catalog: Catalog, parent: MapNodeDef): CatalogType[] {
  const parentKind = kindOf(catalog, parent);
  const childKind = parentKind ? CHILD_KIND[parentKind] : null;
  return childKind ? catalog.types.filter((type) => type.kind === childKind) : [];
}

export function uniqueNodeId(map: SchoolMap, defId: string): string {
  const taken = new Set(map.nodes.map((n) => n.id));
  const stem = defId.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'node';
  for (let n = 1; ; n++) {
    const candidate = `${stem}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

// A new room is linked to its floor's corridor when there is one, otherwise to its parent, so the
// graph stays connected the way the server's validator requires.
export function addNode(map: SchoolMap, catalog: Catalog, parentId: string, defId: string): { map: SchoolMap; id: string } {
  const type = catalog.types.find((t) => t.id === defId);
  const id = uniqueNodeId(map, defId);
  const node: MapNodeDef = { id, def: defId, parent: parentId, name: '' };
  const corridor = type?.kind === 'room'
    ? childrenOf(map, parentId).find((sibling) => sibling.def.toLowerCase().includes(CORRIDOR_HINT))
    : undefined;
  const linkTo = corridor?.id ?? parentId;
  const linkKind = LINK_KIND_FOR_CHILD[type?.kind ?? 'room'];
  return {
    id,
    map: { nodes: [...map.nodes, node], links: [...map.links, { from: linkTo, to: id, kind: linkKind }] },
  };
}

export function renameNode(map: SchoolMap, nodeId: string, name: string): SchoolMap {
  const trimmed = [...name].slice(0, MAX_NODE_NAME_CHARS).join('');
  return { ...map, nodes: map.nodes.map((n) => (n.id === nodeId ? { ...n, name: trimmed } : n)) };
}

// Removes the node, everything under it and every link that touches any of them.
export function removeNode(map: SchoolMap, nodeId: string): SchoolMap {
  const doomed = new Set([nodeId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const node of map.nodes) {
      if (!doomed.has(node.id) && doomed.has(node.parent)) {
        doomed.add(node.id);
        grew = true;
      }
    }
  }
  return {
    nodes: map.nodes.filter((n) => !doomed.has(n.id)),
    links: map.links.filter((l) => !doomed.has(l.from) && !doomed.has(l.to)),
  };
}
