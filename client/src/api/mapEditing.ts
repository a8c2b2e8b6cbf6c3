// Pure edits of a school map for the create dialog; each returns a new map and keeps it connected.
import { CHILD_KIND, LINK_KIND_FOR_CHILD } from './catalog';
import type { Catalog, CatalogType, MapNodeDef, NodeKindName, SchoolMap } from './catalog';

export const MAX_NODE_NAME_CHARS = 60; // the server's kMaxNodeNameChars
const ANCHOR_HINTS = ['corridor', 'stair']; // rooms every floor is entered through

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

// Nodes reachable from the yard through links (undirected), as the server's validator walks them.
export function reachableFromYard(map: SchoolMap): Set<string> {
  const yard = map.nodes.find((node) => node.parent === '');
  const reached = new Set<string>();
  if (!yard) return reached;
  const neighbours = new Map<string, string[]>();
  for (const link of map.links) {
    neighbours.set(link.from, [...(neighbours.get(link.from) ?? []), link.to]);
    neighbours.set(link.to, [...(neighbours.get(link.to) ?? []), link.from]);
  }
  const queue = [yard.id];
  reached.add(yard.id);
  while (queue.length > 0) {
    for (const next of neighbours.get(queue.shift()!) ?? []) {
      if (!reached.has(next)) {
        reached.add(next);
        queue.push(next);
      }
    }
  }
  return reached;
}

function descendantsOf(map: SchoolMap, id: string): MapNodeDef[] {
  const out: MapNodeDef[] = [];
  for (const child of childrenOf(map, id)) out.push(child, ...descendantsOf(map, child.id));
  return out;
}

// Where a new node under `parentId` is linked so the server still finds every room reachable
// from the yard: the yard itself for a building, the floor's corridor or staircase, the parent itself, anything reachable inside
// the parent, the parent's own anchor, and finally the yard.
export function linkAnchor(map: SchoolMap, parentId: string, reached: Set<string> = reachableFromYard(map)): string {
  const parent = map.nodes.find((node) => node.id === parentId);
  if (parent && parent.parent === '') return parentId; // a building is entered from the yard
  const inside = descendantsOf(map, parentId).filter((node) => reached.has(node.id));
  const preferred = inside.find((node) => ANCHOR_HINTS.some((hint) => node.def.toLowerCase().includes(hint)));
  if (preferred) return preferred.id;
  if (reached.has(parentId)) return parentId;
  if (inside[0]) return inside[0].id;
  if (parent && parent.parent) return linkAnchor(map, parent.parent, reached);
  return map.nodes.find((node) => node.parent === '')?.id ?? parentId;
}

// Adds a node and one link from its anchor (see linkAnchor), so the map stays connected.
export function addNode(map: SchoolMap, catalog: Catalog, parentId: string, defId: string): { map: SchoolMap; id: string } {
  const type = catalog.types.find((t) => t.id === defId);
  const id = uniqueNodeId(map, defId);
  const node: MapNodeDef = { id, def: defId, parent: parentId, name: '' };
  const linkKind = LINK_KIND_FOR_CHILD[type?.kind ?? 'room'];
  return {
    id,
    map: { nodes: [...map.nodes, node], links: [...map.links, { from: linkAnchor(map, parentId), to: id, kind: linkKind }] },
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
