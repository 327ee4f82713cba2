/** Where a dragged node lands relative to the row under the pointer. */
export type DropPosition = 'before' | 'after' | 'into';

/**
 * By the pointer's height in the row: its top quarter drops before the row's node, its bottom
 * quarter after it, the middle into it (as its last child). Below an open node come its
 * children, so a line under its row would read as "first child": there the bottom quarter
 * drops into it too.
 */
export function dropPositionAt(offsetY: number, height: number, open: boolean): DropPosition {
  const ratio = height > 0 ? offsetY / height : 0.5;
  if (ratio < 0.25) return 'before';
  if (ratio > 0.75 && !open) return 'after';
  return 'into';
}
