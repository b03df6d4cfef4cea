import type { ReactNode } from 'react';
import './auth.css';

/** The sign-in pages' frame: the lowercase product title, a page title, an optional subtitle, a card holding the form. */
export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth-page">
      <p className="auth-page__brand" aria-hidden="true">
        provenance
      </p>
      <h1 className="auth-page__title">{title}</h1>
      {subtitle && <p className="auth-page__subtitle muted">{subtitle}</p>}
      <div className="card auth-page__card">{children}</div>
      {footer && <div className="auth-page__footer">{footer}</div>}
    </div>
  );
}
