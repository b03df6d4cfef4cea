import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog (the browser's own <dialog>: focus kept inside, the page behind it inert, focus
 * back on the opener when it closes). Escape cancels, except while its action runs.
 */
export function ActionDialog({ title, busy, onCancel, children }: { title: string; busy: boolean; onCancel: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current!;
    element.showModal();
    return () => element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="admin-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId} className="admin-dialog__title">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
