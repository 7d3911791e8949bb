import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { WardenState, WardenStore } from './store.js';

/** The store of the window, provided once by the app. */
export const StoreContext = createContext<WardenStore | null>(null);

/** Selects from the console's store; re-renders only when the selected value changes. */
export function useWarden<T>(selector: (s: WardenState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useWarden outside the store provider');
  return useStore(store, selector);
}
