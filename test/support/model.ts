/**
 * A plain in-memory tree: the reference that model-based and fault tests compare the server
 * with. It knows only parent pointers and sibling order, so every derived fact (depth, rootId,
 * ancestors, descendants) is computed here the slow, obvious way.
 */
export interface ModelNode {
  id: string;
  parentId: string | null;
  name: string;
  data: Record<string, unknown> | null;
}

export interface Placement {
  before?: string | null;
  after?: string | null;
}

export class TreeModel {
  readonly nodes = new Map<string, ModelNode>();
  /** Ordered child ids per parent; the key null holds the roots this model created. */
  private readonly kids = new Map<string | null, string[]>();

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  get(id: string): ModelNode {
    const node = this.nodes.get(id);
    if (!node) throw new Error(`model: no node "${id}"`);
    return node;
  }

  ids(): string[] {
    return [...this.nodes.keys()];
  }

  children(parentId: string | null): string[] {
    return [...(this.kids.get(parentId) ?? [])];
  }

  roots(): string[] {
    return this.children(null);
  }

  create(node: ModelNode, placement: Placement = {}): void {
    if (this.nodes.has(node.id)) throw new Error(`model: "${node.id}" exists`);
    if (node.parentId !== null) this.get(node.parentId);
    this.nodes.set(node.id, { ...node });
    this.place(node.id, node.parentId, placement);
  }

  move(id: string, newParentId: string | null, placement: Placement = {}): void {
    const node = this.get(id);
    this.unplace(id, node.parentId);
    node.parentId = newParentId;
    this.place(id, newParentId, placement);
  }

  update(id: string, changes: { name?: string; data?: Record<string, unknown> | null }): void {
    const node = this.get(id);
    if (changes.name !== undefined) node.name = changes.name;
    if (changes.data !== undefined) node.data = changes.data;
  }

  /** Removes the node and its subtree; returns how many nodes went. */
  remove(id: string): number {
    const gone = this.subtree(id);
    this.unplace(id, this.get(id).parentId);
    for (const each of gone) {
      this.nodes.delete(each);
      this.kids.delete(each);
    }
    return gone.length;
  }

  /** Ids from the root down to the parent (empty for a root). */
  ancestors(id: string): string[] {
    const chain: string[] = [];
    let current = this.get(id).parentId;
    while (current !== null) {
      if (chain.includes(current)) throw new Error(`model: cycle through "${current}"`);
      chain.unshift(current);
      current = this.get(current).parentId;
    }
    return chain;
  }

  depth(id: string): number {
    return this.ancestors(id).length;
  }

  rootId(id: string): string {
    return this.ancestors(id)[0] ?? id;
  }

  /** Descendant ids grouped by relative depth: index 0 holds the children. */
  descendantsByDepth(id: string): string[][] {
    const levels: string[][] = [];
    let frontier = [id];
    while (frontier.length > 0) {
      const next = frontier.flatMap((each) => this.children(each));
      if (next.length === 0) break;
      levels.push(next);
      frontier = next;
    }
    return levels;
  }

  /** The node and everything below it. */
  subtree(id: string): string[] {
    return [id, ...this.descendantsByDepth(id).flat()];
  }

  isInSubtree(candidate: string, of: string): boolean {
    return this.subtree(of).includes(candidate);
  }

  /** Depth of the deepest node below `id`, relative to it (0 for a leaf). */
  height(id: string): number {
    return this.descendantsByDepth(id).length;
  }

  private place(id: string, parentId: string | null, placement: Placement): void {
    const list = this.kids.get(parentId) ?? [];
    this.kids.set(parentId, list);
    if (placement.before) {
      const at = list.indexOf(placement.before);
      if (at < 0) throw new Error(`model: "${placement.before}" is not a sibling`);
      list.splice(at, 0, id);
    } else if (placement.after) {
      const at = list.indexOf(placement.after);
      if (at < 0) throw new Error(`model: "${placement.after}" is not a sibling`);
      list.splice(at + 1, 0, id);
    } else {
      list.push(id);
    }
  }

  private unplace(id: string, parentId: string | null): void {
    const list = this.kids.get(parentId) ?? [];
    const at = list.indexOf(id);
    if (at >= 0) list.splice(at, 1);
  }
}
