import { describe, expect, it } from 'vitest';
import { buildTree, filterTree } from './mapFilter';
import type { TreeNode } from './mapFilter';
import type { v4 } from '../net/protocol';

const node = (kind: number, id: string, parent: string, name: string, items: string[] = [], positions: string[] = []): v4.MapNode =>
  ({ kind, id, parent, name, items, positions });

const nodes = [
  node(0, 'yard', '', 'Yard', ['Bench']),
  node(1, 'b1', 'yard', 'Main building'),
  node(2, 'f1', 'b1', 'Floor 1'),
  node(3, 'r1', 'f1', 'Class 5A', ['Board'], ['desk-1']),
  node(3, 'r2', 'f1', 'Gym', ['Ball']),
  node(3, 'orphan', 'missing', 'Lost room'),
];

const ids = (tree: TreeNode[]): string[] => tree.flatMap((entry) => [entry.node.id, ...ids(entry.children)]);

describe('map tree filtering', () => {
  const roots = buildTree(nodes);

  it('builds territory → building → floor → room and keeps orphans as roots', () => {
    expect(roots.map((r) => r.node.id)).toEqual(['yard', 'orphan']);
    expect(ids(roots)).toEqual(['yard', 'b1', 'f1', 'r1', 'r2', 'orphan']);
  });

  it('shows the selected subtree only', () => {
    expect(ids(filterTree(roots, 'f1', ''))).toEqual(['f1', 'r1', 'r2']);
    expect(ids(filterTree(roots, 'r2', ''))).toEqual(['r2']);
  });

  it('searches names, items and positions and keeps the ancestors', () => {
    expect(ids(filterTree(roots, null, 'gym'))).toEqual(['yard', 'b1', 'f1', 'r2']);
    expect(ids(filterTree(roots, null, 'desk'))).toEqual(['yard', 'b1', 'f1', 'r1']);
    expect(ids(filterTree(roots, null, 'bench'))).toEqual(['yard']);
  });

  it('combines a selection with a search', () => {
    expect(ids(filterTree(roots, 'f1', 'ball'))).toEqual(['f1', 'r2']);
    expect(filterTree(roots, 'r1', 'ball')).toEqual([]);
  });
});
