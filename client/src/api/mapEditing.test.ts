import { describe, expect, it } from 'vitest';
import { mapToJson, parseCatalog } from './catalog';
import { addNode, displayName, placeableUnder, reachableFromYard, removeNode, renameNode } from './mapEditing';

const catalog = parseCatalog({
  lang: 'en',
  mods: ['core'],
  types: [
    { id: 'yard', kind: 'territory', label: 'Yard', items: [{ id: 'bench', label: 'Bench' }], positions: [] },
    { id: 'school-building', kind: 'building', label: 'School building', items: [], positions: [] },
    { id: 'floor', kind: 'floor', label: 'Floor', items: [], positions: [] },
    { id: 'corridor', kind: 'room', label: 'Corridor', items: [], positions: [] },
    { id: 'classroom', kind: 'room', label: 'Classroom', items: [], positions: [{ id: 'desk', label: 'Desk' }] },
    { id: 'broken', kind: 'spaceship', label: 'Ignored' },
  ],
  defaultMap: {
    nodes: [
      { id: 'yard', def: 'yard' },
      { id: 'b1', def: 'school-building', parent: 'yard', name: 'Main' },
      { id: 'f1', def: 'floor', parent: 'b1' },
      { id: 'c1', def: 'corridor', parent: 'f1' },
      { id: 'r1', def: 'classroom', parent: 'f1', name: '5A' },
    ],
    links: [
      { from: 'yard', to: 'b1', kind: 'entrance' },
      { from: 'b1', to: 'c1', kind: 'stairs' },
      { from: 'c1', to: 'r1', kind: 'door' },
    ],
  },
});
const map = catalog.defaultMap;

describe('catalog parsing', () => {
  it('keeps known kinds, fills omitted parent and name', () => {
    expect(catalog.types.map((t) => t.id)).not.toContain('broken');
    expect(map.nodes[0]).toEqual({ id: 'yard', def: 'yard', parent: '', name: '' });
    expect(catalog.types[0]!.items).toEqual([{ id: 'bench', label: 'Bench' }]);
  });

  it('survives garbage', () => {
    expect(parseCatalog(null)).toEqual({ lang: '', mods: [], types: [], defaultMap: { nodes: [], links: [] } });
  });

  it('omits empty parent and name when posting', () => {
    const json = mapToJson(map) as { nodes: Array<Record<string, string>> };
    expect(json.nodes[0]).toEqual({ id: 'yard', def: 'yard' });
    expect(json.nodes[1]).toEqual({ id: 'b1', def: 'school-building', parent: 'yard', name: 'Main' });
  });
});

describe('map editing', () => {
  it('offers only the next kind down the tree', () => {
    expect(placeableUnder(catalog, map.nodes[2]!).map((t) => t.id)).toEqual(['corridor', 'classroom']);
    expect(placeableUnder(catalog, map.nodes[4]!)).toEqual([]);
  });

  it('links a new room to its floor corridor', () => {
    const { map: next, id } = addNode(map, catalog, 'f1', 'classroom');
    expect(id).toBe('classroom-1');
    expect(next.nodes.at(-1)).toEqual({ id, def: 'classroom', parent: 'f1', name: '' });
    expect(next.links.at(-1)).toEqual({ from: 'c1', to: id, kind: 'door' });
    expect(map.nodes).toHaveLength(5); // the original is untouched
  });

  it('links a new floor to a reachable corridor of its building, not to the unlinked building', () => {
    const { map: next, id } = addNode(map, catalog, 'b1', 'floor');
    expect(next.links.at(-1)).toEqual({ from: 'c1', to: id, kind: 'stairs' });
  });

  it('keeps rooms on a new floor reachable from the yard', () => {
    const withFloor = addNode(map, catalog, 'b1', 'floor');
    const withRoom = addNode(withFloor.map, catalog, withFloor.id, 'classroom');
    expect(withRoom.map.links.at(-1)).toEqual({ from: withFloor.id, to: withRoom.id, kind: 'door' });
    expect(reachableFromYard(withRoom.map).has(withRoom.id)).toBe(true);
  });

  it('links a new building to the yard and its first room through the building', () => {
    const building = addNode(map, catalog, 'yard', 'school-building');
    expect(building.map.links.at(-1)).toEqual({ from: 'yard', to: building.id, kind: 'entrance' });
    const floor = addNode(building.map, catalog, building.id, 'floor');
    const room = addNode(floor.map, catalog, floor.id, 'classroom');
    expect(reachableFromYard(room.map).has(room.id)).toBe(true);
  });

  it('gives unique ids to repeated additions', () => {
    const first = addNode(map, catalog, 'f1', 'classroom');
    const second = addNode(first.map, catalog, 'f1', 'classroom');
    expect(second.id).not.toBe(first.id);
  });

  it('renames and falls back to the type label when the name is cleared', () => {
    const renamed = renameNode(map, 'r1', 'Physics');
    expect(displayName(catalog, renamed.nodes[4]!)).toBe('Physics');
    expect(displayName(catalog, renameNode(map, 'r1', '').nodes[4]!)).toBe('Classroom');
  });

  it('removes a subtree with its links', () => {
    const next = removeNode(map, 'f1');
    expect(next.nodes.map((n) => n.id)).toEqual(['yard', 'b1']);
    expect(next.links).toEqual([{ from: 'yard', to: 'b1', kind: 'entrance' }]);
  });
});
