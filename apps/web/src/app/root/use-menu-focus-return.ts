import { useEffect } from 'react';

/**
 * A dialog opened from a menu item (a table row's "Actions for …" menu) gives the focus back to the menu's
 * button when it closes, not to the page: a keyboard or screen reader user goes on from the row they were
 * on (WCAG 2.4.3).
 *
 * Mantine's Modal returns the focus to the element that had it when the dialog opened. From a menu that is
 * the menu item, which is gone once the menu has closed, so the focus fell to <body>. Choosing a menu item
 * therefore first moves the focus to the menu's button (the element whose aria-controls names the menu),
 * before the item's own handler opens the dialog: the dialog then remembers the button.
 */
export function useMenuFocusReturn(): void {
  useEffect(() => {
    const onActivate = (event: MouseEvent) => {
      if (!(event.target instanceof Element)) return;
      const item = event.target.closest('[role="menuitem"]');
      const menu = item?.closest('[role="menu"][id]');
      if (!item || !menu || item.matches('[disabled], [data-disabled]')) return;
      const button = document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`);
      button?.focus({ preventScroll: true });
    };
    document.addEventListener('click', onActivate, true);
    return () => document.removeEventListener('click', onActivate, true);
  }, []);
}
