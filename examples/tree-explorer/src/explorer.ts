import { createContext, useContext } from 'react';

/** What every tree row needs from the explorer: which nodes are open, which one is selected. */
export interface Explorer {
  selectedId: string | null;
  select(id: string): void;
  isExpanded(id: string): boolean;
  toggle(id: string): void;
}

export const ExplorerContext = createContext<Explorer | null>(null);

export function useExplorer(): Explorer {
  const explorer = useContext(ExplorerContext);
  if (!explorer) throw new Error('useExplorer outside <ExplorerContext.Provider>');
  return explorer;
}
