import type { MouseEvent } from 'react';

/** The id of each layout's main region, where "Skip to content" goes. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to content" (WCAG 2.4.1): the first tab stop of every screen, out of sight until it has the focus
 * (global.css `.skip-link`). It moves the focus to the main region itself, so the next Tab goes to the
 * first control of the content, past the header and the menu. The click is handled here rather than by
 * the browser's jump to #main-content, which would also add a hash to the address.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus({ preventScroll: true });
    main.scrollIntoView({ block: 'start' });
  };
  return (
    <a className="skip-link" href={`#${MAIN_CONTENT_ID}`} onClick={skip}>
      Skip to content
    </a>
  );
}
