import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { auth } from '../api/index.js';
import { localDrafts } from '../editor/local-drafts.js';
import { useCheckedExtensions, useExtensions, useNavItems } from '../extensions/use-extensions.js';
import { useStudio } from '../state/studio-context.js';
import { labelOf } from '../ui/labels.js';
import { Link, navigate, useLocation } from './navigation.js';

/**
 * The frame of signed-in pages: where am I (project, environment), the Studio's pages (the
 * dashboard, the modules' nav items, settings), the content types, who am I.
 */
export function Shell({ children }: { children: ReactNode }) {
  const { bootstrap, environments, target, types, setTarget } = useStudio();
  const { path } = useLocation();
  const [signingOut, setSigningOut] = useState(false);
  const queries = useQueryClient();
  useCheckedExtensions();
  const navItems = useNavItems();
  const hasSettings = useExtensions('settingsPanels').length > 0;
  const current = (to: string) => (path === to || path.startsWith(`${to}/`) ? 'page' : undefined);

  const signOut = async () => {
    if (!(await navigate('/login'))) return;
    setSigningOut(true);
    // Unsaved drafts stay with the person who wrote them: none is left in this browser after sign-out.
    await localDrafts.clear();
    try {
      await auth.logout();
    } catch {
      // Already signed out: the sign-in page is where we are going anyway.
    }
    // Nor what was read for them: whoever signs in next starts without it. The sign-in page's own
    // read (its providers) is in use by now and stays.
    queries.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          CMS Studio
        </Link>
        <div className="switcher">
          <label>
            <span>Project</span>
            <select
              value={target.project}
              onChange={async (e) => {
                const project = e.target.value;
                if (await navigate('/')) setTarget({ project, environment: target.environment });
              }}
            >
              {bootstrap.projects.map((p) => (
                <option key={p.slug} value={p.slug}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Environment</span>
            <select
              value={target.environment}
              onChange={async (e) => {
                const environment = e.target.value;
                if (await navigate('/')) setTarget({ project: target.project, environment });
              }}
            >
              {environments.map((env) => (
                <option key={env.name} value={env.name}>
                  {env.name}
                  {env.isDefault ? ' (default)' : ''}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="user">
          <span className="muted">{bootstrap.me.email ?? bootstrap.me.label}</span>
          <Link to="/account/security">Account security</Link>
          <button type="button" onClick={signOut} disabled={signingOut}>
            Sign out
          </button>
        </div>
      </header>
      <div className="layout">
        <div className="sidebar">
          <nav aria-label="Studio">
            <ul>
              <li>
                <Link to="/" aria-current={path === '/' ? 'page' : undefined}>
                  Dashboard
                </Link>
              </li>
              {navItems.map((item) => (
                <li key={item.id}>
                  <Link to={item.to} aria-current={current(item.to)}>
                    {item.label}
                  </Link>
                </li>
              ))}
              {hasSettings ? (
                <li>
                  <Link to="/settings" aria-current={current('/settings')}>
                    Settings
                  </Link>
                </li>
              ) : null}
            </ul>
          </nav>
          <nav aria-label="Content types">
            <div className="nav-heading" aria-hidden="true">
              Content types
            </div>
            <ul>
              {types.map((type) => {
                const to = `/content/${encodeURIComponent(type.name)}`;
                return (
                  <li key={type.name}>
                    <Link to={to} aria-current={path === to || path.startsWith(`${to}/`) ? 'page' : undefined}>
                      {labelOf(type.name)}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        </div>
        <main id="main" className="content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
