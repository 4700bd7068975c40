import { useEffect } from 'react';
import { setUnauthorizedHandler } from './api/index.js';
import { ContributedPage, useContributedRoute } from './extensions/contributed.js';
import { CliAuthorizePage } from './pages/cli-authorize-page.js';
import { ContentListPage } from './pages/content-list-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EditorPage } from './pages/editor-page.js';
import { HistoryPage } from './pages/history-page.js';
import { InvitePage } from './pages/invite-page.js';
import { LoginPage } from './pages/login-page.js';
import { SettingsPage } from './pages/settings/settings-page.js';
import { SetupPage } from './pages/setup-page.js';
import { match, navigate, useLocation } from './router.js';
import { StudioProvider } from './state/studio-context.js';
import { AuthCard } from './ui/auth-card.js';
import { ErrorNotice, Loading } from './ui/notice.js';
import { Shell } from './ui/shell.js';

const TITLES: Record<string, string> = {
  '/login': 'Sign in',
  '/setup': 'Set up',
  '/invite': 'Accept invitation',
  '/cli/authorize': 'Authorize the command line',
};

/** The Studio's routes (decisions.md §7 names the public ones). */
export function App() {
  const { path, query } = useLocation();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      if (!['/login', '/setup', '/invite'].includes(path)) {
        navigate(`/login?next=${encodeURIComponent(`${path}${query.toString() ? `?${query}` : ''}`)}`, {
          replace: true,
          force: true,
        });
      }
    });
    document.title = `${TITLES[path] ?? 'Studio'} · CMS Studio`;
  }, [path, query]);

  if (path === '/login') return <LoginPage />;
  if (path === '/setup') return <SetupPage />;
  if (path === '/invite') return <InvitePage />;
  if (path === '/cli/authorize') return <CliAuthorizePage />;

  return (
    <StudioProvider
      fallback={(error) =>
        error ? (
          <AuthCard title="The Studio could not start">
            <ErrorNotice error={error} />
            <button type="button" onClick={() => window.location.reload()}>
              Try again
            </button>
          </AuthCard>
        ) : (
          <main className="auth-page">
            <Loading />
          </main>
        )
      }
    >
      <Shell>
        <SignedInRoutes path={path} />
      </Shell>
    </StudioProvider>
  );
}

/** The built-in pages, then the settings area and the pages modules contribute (`routes`). */
function SignedInRoutes({ path }: { path: string }) {
  const contributed = useContributedRoute(path);
  if (path === '/' || path === '') return <DashboardPage />;
  if (path === '/settings' || path.startsWith('/settings/')) return <SettingsPage path={path} />;
  if (contributed) return <ContributedPage key={contributed.id} page={contributed} />;
  let params = match('/content/:type/:id/history', path);
  if (params) return <HistoryPage key={params.id} type={params.type as string} id={params.id as string} />;
  params = match('/content/:type/:id', path);
  if (params)
    return <EditorPage key={`${params.type}/${params.id}`} type={params.type as string} id={params.id as string} />;
  params = match('/content/:type', path);
  if (params) return <ContentListPage key={params.type} type={params.type as string} />;
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no Studio page at this address.</p>
    </>
  );
}
