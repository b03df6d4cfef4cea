import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** WAI-ARIA tabs: arrow keys move between tabs, the panel is labelled by its tab. */
export function Tabs<T extends string>({
  tabs,
  active,
  onSelect,
  label,
  counts,
  children,
}: {
  tabs: readonly T[];
  active: T;
  onSelect: (tab: T) => void;
  label: string;
  counts?: Partial<Record<T, number>>;
  children: ReactNode;
}) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.indexOf(active);
    const next =
      event.key === 'ArrowRight' ? (index + 1) % tabs.length : event.key === 'ArrowLeft' ? (index - 1 + tabs.length) % tabs.length : event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(tabs[next]!);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };
  const tabId = (tab: T) => `${id}-tab-${tabs.indexOf(tab)}`;
  return (
    <>
      <div ref={list} role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab}
            id={tabId(tab)}
            type="button"
            role="tab"
            aria-selected={tab === active}
            aria-controls={`${id}-panel`}
            tabIndex={tab === active ? 0 : -1}
            className="tabs__tab"
            onClick={() => onSelect(tab)}
          >
            {tab}
            {counts?.[tab] !== undefined && <span className="tabs__count">{counts[tab]}</span>}
          </button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={tabId(active)} className="tabs__panel">
        {children}
      </div>
    </>
  );
}
