import { Outlet, ScrollRestoration } from 'react-router';
import { NavigationProgress } from './navigation-progress';
import { useMenuFocusReturn } from './use-menu-focus-return';

export function RootLayout() {
  useMenuFocusReturn();
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
