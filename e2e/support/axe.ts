/** axe's check of a screen against WCAG 2.1 A and AA, for the browser tests that audit what they show. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The WCAG 2.1 A/AA violations axe finds on the page as it is now, or in the part `within` selects (an open
 * dialog or menu): one line per rule and element, led by `where` so that one run names every state it saw.
 */
export async function axeViolations(page: Page, where: string, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(WCAG_21_AA);
  if (within) builder.include(within);
  const result = await builder.analyze();
  return result.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${where}: ${violation.id} (${violation.help}) at ${node.target.join(' ')}: ${
          node.failureSummary?.replace(/\s+/g, ' ') ?? ''
        }`,
    ),
  );
}
