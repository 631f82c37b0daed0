import { Code } from '@mantine/core';
import { DocPage, type DocSection } from '../../../components/doc-page';
import classes from './cookies-screen.module.css';

/**
 * What the app keeps in the browser, each key as the code names it: `allot.session` (lib/session.ts),
 * `allot.sessionEnd` (lib/session-end.ts), and React Router's scroll positions (app/root/root-layout.tsx).
 * The browser test compares this list with what a signed-in walk leaves in the browser.
 */
export const BROWSER_STORAGE = [
  {
    key: 'allot.session',
    where: 'Local storage',
    holds:
      'Your sign-in: the session token the panel sends with each request, your user id and email, and your role and permissions in the organization you are looking at.',
    cleared:
      'When you sign out, and when the server says the session has ended (then you are sent to the sign-in screen). It stays when you close the browser, so that you remain signed in: sign out on a shared computer.',
  },
  {
    key: 'allot.sessionEnd',
    where: 'Session storage',
    holds:
      'Written when a page of the panel sends you to the sign-in screen (your session ended, or you were not signed in): that page, your user id and email address if you were signed in, and whether a change of yours was not saved, so that signing in fills in your email and takes you back there.',
    cleared: 'When you sign in again or sign out, and when you close the tab.',
  },
  {
    key: 'react-router-scroll-positions',
    where: 'Session storage',
    holds:
      'How far down you had scrolled each page you opened in this tab (positions only, nothing of the page’s content), so that Back returns you to the same place.',
    cleared: 'When you close the tab.',
  },
] as const;

const SECTIONS: DocSection[] = [
  {
    id: 'cookies',
    title: 'Cookies',
    content: (
      <p>
        <strong>The panel sets no cookies</strong>, and neither does its server: it signs each request with a
        token in the request’s header instead. It loads nothing from other sites: no analytics, no
        advertising, no fonts or scripts from elsewhere.
      </p>
    ),
  },
  {
    id: 'browser-storage',
    title: 'What it keeps in your browser',
    content: (
      <>
        <p>
          Three entries, in the browser’s storage for this site. Each one is needed for the panel to work as
          described, none is used to follow you, and none is sent anywhere but to this installation’s server.
        </p>
        <ul className={classes.entries} aria-label="What the panel stores in the browser">
          {BROWSER_STORAGE.map((entry) => (
            <li key={entry.key} className={classes.entry}>
              <Code fz="sm" fw={600}>
                {entry.key}
              </Code>
              <dl className={classes.facts}>
                <dt>Where</dt>
                <dd>{entry.where}</dd>
                <dt>What it holds</dt>
                <dd>{entry.holds}</dd>
                <dt>When it is cleared</dt>
                <dd>{entry.cleared}</dd>
              </dl>
            </li>
          ))}
        </ul>
        <p>
          Local storage stays until it is cleared; session storage belongs to one tab and goes with it. Your
          browser’s settings for this site remove all of them at any time; that signs you out.
        </p>
      </>
    ),
  },
  {
    id: 'not-kept',
    title: 'What it does not keep',
    content: (
      <p>
        The figures and lists on the screens (organizations, people, credits, logs) are held in the page’s
        memory only, and are gone when you close the tab or sign out. The server marks its answers not to be
        stored (<Code>Cache-Control: no-store</Code>), so the browser keeps no copy of them either. Like for
        any site, the browser may keep the panel’s own program files (its scripts and styles) in its cache;
        they hold no data of yours. Files you export (CSV) are saved where you choose.
      </p>
    ),
  },
];

/** Cookies (spec §2 footer, issue 36): what the panel keeps in the browser, truthfully and completely. */
export function CookiesScreen() {
  return (
    <DocPage
      title="Cookies and browser storage"
      intro={<p>What this panel stores on your computer, why, and when it goes away.</p>}
      sections={SECTIONS}
    />
  );
}
