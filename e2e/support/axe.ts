/** axe's check of a screen against WCAG 2.1 A and AA, for the browser tests that audit what they show. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ElementContext, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Axe = { run: (context: ElementContext, options: RunOptions) => Promise<AxeResults> };

/**
 * The WCAG 2.1 A/AA violations axe finds on the page as it is now, or in the part `within` selects (an open
 * dialog or menu): one line per rule and element, led by `where` so that one run names every state it saw.
 *
 * axe is put into the page once per document and run there (the app has no frames): `@axe-core/playwright`'s
 * AxeBuilder evaluates axe's 500 kB again for every check and opens a page of its own to finish each, which
 * made an audit cost several times what axe's own run does.
 */
export async function axeViolations(page: Page, where: string, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ tags, within }) => {
      const axe = (window as unknown as { axe: Axe }).axe;
      const result = await axe.run(within ? { include: [within] } : document, {
        runOnly: { type: 'tag', values: tags },
      });
      return result.violations.map((violation) => ({
        id: violation.id,
        help: violation.help,
        nodes: violation.nodes.map((node) => ({
          target: node.target.map(String),
          failureSummary: node.failureSummary,
        })),
      }));
    },
    { tags: WCAG_21_AA, within },
  );
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${where}: ${violation.id} (${violation.help}) at ${node.target.join(' ')}: ${
          node.failureSummary?.replace(/\s+/g, ' ') ?? ''
        }`,
    ),
  );
}
