import type { FiguresSnapshot } from './figures-machine';

export const DASHBOARD_TABS = [
  { id: 'add-item', label: 'Add Item' },
  { id: 'nfc-tags', label: 'NFC Tags' },
  { id: 'manage', label: 'Manage' },
] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number]['id'];

/** What every tab is given: the dashboard's figures, and a way to say the catalogue changed so that they are read again. */
export interface TabProps {
  readonly figures: FiguresSnapshot;
  readonly onCatalogueChanged: () => void;
}

/** The tab named in the URL (?tab=...), so that a reload or a shared link keeps it; Add Item by default. */
export function tabOf(search: URLSearchParams): DashboardTab {
  const named = search.get('tab');
  return DASHBOARD_TABS.find((tab) => tab.id === named)?.id ?? 'add-item';
}

