import { ContributedPage, ownsPath } from '../../extensions/contributed.js';
import { Slot } from '../../extensions/slot.js';
import { useExtensions } from '../../extensions/use-extensions.js';
import { Link } from '../../routing/navigation.js';
import { Empty } from '../../ui/notice.js';

/**
 * `/settings` and its panels: every module's `settingsPanels` (slot `settings.general`), each at its
 * own path (and the paths below it, for its own sub-pages), with the list of panels beside it; `/settings` itself lists them and shows the widgets
 * modules put in `settings.general`.
 */
export function SettingsPage({ path }: { path: string }) {
  const panels = useExtensions('settingsPanels').filter((panel) => panel.slot === 'settings.general');
  if (path === '/settings') {
    return (
      <>
        <h1>Settings</h1>
        <p className="muted">What you may manage in this project. Each area has its own page.</p>
        {panels.length === 0 ? <Empty>There are no settings you may manage here.</Empty> : null}
        <ul className="settings-panels">
          {panels.map((panel) => (
            <li key={panel.id}>
              <Link to={panel.path}>
                <strong>{panel.label}</strong>
              </Link>
              {panel.description ? <p className="muted">{panel.description}</p> : null}
            </li>
          ))}
        </ul>
        <Slot id="settings.general" props={{}} />
      </>
    );
  }
  const panel = panels
    .filter((candidate) => ownsPath(candidate.path, path))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return (
    <div className="settings-layout">
      <nav className="settings-nav" aria-label="Settings">
        <ul>
          <li>
            <Link to="/settings">All settings</Link>
          </li>
          {panels.map((candidate) => (
            <li key={candidate.id}>
              <Link to={candidate.path} aria-current={candidate === panel ? 'page' : undefined}>
                {candidate.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div>
        {panel ? (
          <ContributedPage page={panel} />
        ) : (
          <>
            <h1>Settings page not found</h1>
            <p>There is no settings page at this address, or you may not manage it in this project.</p>
          </>
        )}
      </div>
    </div>
  );
}
