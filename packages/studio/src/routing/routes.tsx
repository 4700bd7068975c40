/**
 * The Studio's routes (decisions.md §7 names the public ones), on TanStack Router under `/studio`.
 * Pages outside the session (sign-in, setup, invitation, CLI authorization, second factor) sit at the
 * root; every other page sits under the signed-in layout (the Studio's context and the shell).
 * Addresses are exactly the ones the hand-written router had: the query stays plain text
 * (`?q=hello&page=2`), never JSON, so bookmarks, tests and docs keep working.
 */
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  type RouteComponent,
} from '@tanstack/react-router';
import { Suspense, useEffect } from 'react';
import { setUnauthorizedHandler } from '../api/index.js';
import { STUDIO_COMPONENTS } from '../extensions/components.js';
import { ContributedPage, useContributedRoute } from '../extensions/contributed.js';
import { StudioComponentsContext } from '../extensions/registry.js';
import { DashboardPage } from '../pages/dashboard-page.js';
import { LoginPage } from '../pages/login-page.js';
import { StudioProvider } from '../state/studio-context.js';
import { AuthCard } from '../ui/auth-card.js';
import { ErrorNotice, Loading } from '../ui/notice.js';
import { BASE, bindRouter, navigate, useLocation } from './navigation.js';
import { Shell } from './shell.js';

// The sign-in page and the dashboard come with the Studio's first download; every other page is its own
// chunk, fetched when first opened (the editor's alone is most of the Studio), so the first page loads
// only what it shows (docs/benchmarks.md "Studio JavaScript per page").
const AccountSecurityPage = lazyRouteComponent(
  () => import('../pages/account-security-page.js'),
  'AccountSecurityPage',
);
const CliAuthorizePage = lazyRouteComponent(() => import('../pages/cli-authorize-page.js'), 'CliAuthorizePage');
const ContentListPage = lazyRouteComponent(() => import('../pages/content-list-page.js'), 'ContentListPage');
const EditorPage = lazyRouteComponent(() => import('../pages/editor-page.js'), 'EditorPage');
const HistoryPage = lazyRouteComponent(() => import('../pages/history-page.js'), 'HistoryPage');
const InvitePage = lazyRouteComponent(() => import('../pages/invite-page.js'), 'InvitePage');
const SettingsPage = lazyRouteComponent(() => import('../pages/settings/settings-page.js'), 'SettingsPage');
const SetupPage = lazyRouteComponent(() => import('../pages/setup-page.js'), 'SetupPage');

const TITLES: Record<string, string> = {
  '/login': 'Sign in',
  '/setup': 'Set up',
  '/invite': 'Accept invitation',
  '/cli/authorize': 'Authorize the command line',
  '/account/security': 'Account security',
};
const OUTSIDE_SESSION = ['/login', '/setup', '/invite'];

/** Every page: the tab's title, and a 401 anywhere sends the person to sign in and back here after. */
function Root() {
  const { path, query } = useLocation();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      if (OUTSIDE_SESSION.includes(path)) return;
      const here = `${path}${query.toString() ? `?${query}` : ''}`;
      void navigate(`/login?next=${encodeURIComponent(here)}`, { replace: true, force: true });
    });
    document.title = `${TITLES[path] ?? 'Studio'} · CMS Studio`;
  }, [path, query]);
  return <Outlet />;
}

/** The signed-in frame: the Studio's context (who, where, which schema) and the shell around the page. */
function SignedIn() {
  return (
    <StudioProvider
      fallback={(error) =>
        // CMS_REQUIRE_MFA=admins: an administrator without a second factor sets it up before anything else.
        error?.code === 'MFA_ENROLMENT_REQUIRED' ? (
          <Suspense fallback={<Loading />}>
            <AccountSecurityPage />
          </Suspense>
        ) : error ? (
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
      <StudioComponentsContext.Provider value={STUDIO_COMPONENTS}>
        <Shell>
          <Outlet />
        </Shell>
      </StudioComponentsContext.Provider>
    </StudioProvider>
  );
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no Studio page at this address.</p>
    </>
  );
}

/** A page a module contributes (`routes`), else "Page not found". */
function ContributedOrNotFound() {
  const { path } = useLocation();
  const contributed = useContributedRoute(path);
  return contributed ? <ContributedPage key={contributed.id} page={contributed} /> : <NotFound />;
}

function Settings() {
  const { path } = useLocation();
  return <SettingsPage path={path} />;
}

const rootRoute = createRootRoute({ component: Root });
const outside = (path: string, component: RouteComponent) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });
const signedIn = createRoute({ getParentRoute: () => rootRoute, id: 'signed-in', component: SignedIn });
const inside = (path: string, component: RouteComponent) =>
  createRoute({ getParentRoute: () => signedIn, path, component });

const contentListRoute = createRoute({ getParentRoute: () => signedIn, path: 'content/$type' }).update({
  component: function ContentListRoute() {
    const { type } = contentListRoute.useParams();
    return <ContentListPage key={type} type={type} />;
  },
});
const editorRoute = createRoute({ getParentRoute: () => signedIn, path: 'content/$type/$id' }).update({
  component: function EditorRoute() {
    const { type, id } = editorRoute.useParams();
    return <EditorPage key={`${type}/${id}`} type={type} id={id} />;
  },
});
const historyRoute = createRoute({ getParentRoute: () => signedIn, path: 'content/$type/$id/history' }).update({
  component: function HistoryRoute() {
    const { type, id } = historyRoute.useParams();
    return <HistoryPage key={id} type={type} id={id} />;
  },
});

const routeTree = rootRoute.addChildren([
  outside('login', LoginPage),
  outside('setup', SetupPage),
  outside('invite', InvitePage),
  outside('cli/authorize', CliAuthorizePage),
  outside('account/security', AccountSecurityPage),
  signedIn.addChildren([
    inside('/', DashboardPage),
    inside('settings', Settings),
    inside('settings/$', Settings),
    contentListRoute,
    editorRoute,
    historyRoute,
    inside('$', ContributedOrNotFound),
  ]),
]);

/** The query as the address has it: every value a string (`?page=2` is "2"), in the order written. */
function parseSearch(searchStr: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(searchStr));
}
function stringifySearch(search: Record<string, unknown>): string {
  const text = new URLSearchParams(
    Object.entries(search).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
  ).toString();
  return text ? `?${text}` : '';
}

export function createStudioRouter() {
  const router = createRouter({
    routeTree,
    basepath: BASE,
    parseSearch,
    stringifySearch,
    defaultNotFoundComponent: NotFound,
    // Shown while a page's chunk is fetched (its first visit).
    defaultPendingComponent: Loading,
  });
  bindRouter(router);
  return router;
}

export type StudioRouter = ReturnType<typeof createStudioRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: StudioRouter;
  }
}
