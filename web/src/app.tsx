import { useEffect, useState } from 'preact/hooks';
import { loggedIn, login, logout, subscribe, whenLoggedOut } from './api';
import { EventsPage } from './pages/events';
import { ClientsPage } from './pages/clients';
import { ChecksPage } from './pages/checks';
import { SilencesPage } from './pages/silences';
import { ConfigPage } from './pages/config';
import { MigrationPage } from './pages/migration';
import { BridgePage } from './pages/bridge';

const PAGES = [
  { id: 'events', title: 'Events', view: EventsPage },
  { id: 'clients', title: 'Clients', view: ClientsPage },
  { id: 'checks', title: 'Checks', view: ChecksPage },
  { id: 'silences', title: 'Silences & stashes', view: SilencesPage },
  { id: 'config', title: 'Configuration', view: ConfigPage },
  { id: 'migration', title: 'Migration', view: MigrationPage },
  { id: 'bridge', title: 'Bridge', view: BridgePage },
] as const;

/** `#/page/rest`: the page, and what it is showing (a check's name, …). */
function readHash(): { page: string; rest: string } {
  const [, page = 'events', ...rest] = location.hash.split('/');
  return { page, rest: decodeURIComponent(rest.join('/')) };
}

export function App() {
  const [authed, setAuthed] = useState(loggedIn());
  const [route, setRoute] = useState(readHash());
  const [generation, setGeneration] = useState(0);
  const [live, setLive] = useState(false);
  useEffect(() => whenLoggedOut(() => setAuthed(false)), []);
  useEffect(() => {
    const onHash = () => setRoute(readHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => (authed ? subscribe(() => setGeneration((g) => g + 1), setLive) : undefined), [authed]);
  const current = PAGES.find((p) => p.id === route.page) ?? PAGES[0];
  useEffect(() => void (document.title = `${current.title} · checkbridge`), [current]);
  if (!authed) return <Login onDone={() => setAuthed(true)} />;
  const View = current.view;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">checkbridge</span>
        <nav aria-label="Pages">
          {PAGES.map((p) => (
            <a key={p.id} href={`#/${p.id}`} aria-current={p.id === current.id ? 'page' : undefined}>
              {p.title}
            </a>
          ))}
        </nav>
        <span class={`live ${live ? 'on' : 'off'}`} role="status" data-testid="live">
          {live ? 'Live' : 'Offline'}
        </span>
        <button type="button" class="quiet" onClick={() => void logout()}>
          Log out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{current.title}</h1>
        <View generation={generation} rest={route.rest} />
      </main>
    </>
  );
}

function Login({ onDone }: { onDone: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    const problem = await login(String(form.get('user')), String(form.get('password'))).catch(() => 'The server cannot be reached.');
    setBusy(false);
    if (problem) setError(problem);
    else onDone();
  };
  return (
    <main id="main" class="login">
      <form onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">checkbridge</h1>
        <p>Sign in with a checkbridge user (the v2 API's users).</p>
        <label>
          User name
          <input name="user" autocomplete="username" required autofocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        {error && (
          <p class="notice error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
