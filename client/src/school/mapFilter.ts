// Client-side filtering of the MapSnapshot tree (there is no OpenLocation on the server yet).
import type { v4 } from '../net/protocol';

export interface TreeNode {
  node: v4.MapNode;
  children: TreeNode[];
}

// Builds the parent tree; nodes whose parent is missing become roots so nothing is hidden.
export function buildTree(nodes: readonly v4.MapNode[]): TreeNode[] {
  const byId = new Map<string, TreeNode>();
  for (const node of nodes) byId.set(node.id, { node, children: [] });
  const roots: TreeNode[] = [];
  for (const entry of byId.values()) {
    const parent = entry.node.parent ? byId.get(entry.node.parent) : undefined;
    if (parent && parent !== entry) parent.children.push(entry);
    else roots.push(entry);
  }
  return roots;
}

function matches(node: v4.MapNode, query: string): boolean {
  const needle = query.toLocaleLowerCase();
  return [node.name, node.id, ...node.items, ...node.positions].some((text) => text.toLocaleLowerCase().includes(needle));
}

// Keeps nodes that match the search (with their ancestors for context) inside the selected subtree.
export function filterTree(roots: readonly TreeNode[], selectedId: string | null, query: string): TreeNode[] {
  const scope = selectedId ? findSubtree(roots, selectedId) : roots;
  const trimmed = query.trim();
  if (!trimmed) return [...scope];
  const prune = (entry: TreeNode): TreeNode | null => {
    const children = entry.children.map(prune).filter((c): c is TreeNode => c !== null);
    if (children.length > 0 || matches(entry.node, trimmed)) return { node: entry.node, children };
    return null;
  };
  return scope.map(prune).filter((c): c is TreeNode => c !== null);
}

function findSubtree(roots: readonly TreeNode[], id: string): TreeNode[] {
  for (const entry of roots) {
    if (entry.node.id === id) return [entry];
    const found = findSubtree(entry.children, id);
    if (found.length > 0) return found;
  }
  return [];
}
