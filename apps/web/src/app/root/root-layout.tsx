import type { Location } from 'react-router';
import { Outlet, ScrollRestoration } from 'react-router';
import { NavigationProgress } from './navigation-progress';
import { useMenuFocusReturn } from './use-menu-focus-return';

/**
 * React Router names the entry a page load starts on 'default', whatever its URL, and keeps scroll positions
 * by that name in sessionStorage: a tab's second page load was given the first one's position, restored
 * half a second late (the router renders in a transition), after the person had scrolled, so the page jumped
 * (and an open menu whose button left the window hid). This load's own name keeps its position apart.
 */
const thisLoad = `load-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
const scrollKey = (location: Location) => (location.key === 'default' ? thisLoad : location.key);

export function RootLayout() {
  useMenuFocusReturn();
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
