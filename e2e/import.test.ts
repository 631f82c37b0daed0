import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMPORT_SKIP_MESSAGE, IMPORT_TEMPLATE_FILE_NAME } from '@allot/domain/users';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken, callApi } from './support/api';
import { screenshot } from './support/browser';
import { myOrganizationId, removeMembersFound } from './support/builders';
import { browserSuite, signIn, uniqueDomain } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const csvDir = mkdtempSync(join(tmpdir(), 'allot-e2e-import-'));
let ownerToken: string;
let riversideId: string;

beforeAll(async () => {
  ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  riversideId = await myOrganizationId(baseUrl, ownerToken, DEMO_ROOT);
  if (!riversideId) throw new Error(`${OWNER} does not hold ${DEMO_ROOT}`);
});
afterAll(() => rmSync(csvDir, { recursive: true, force: true }));

describe('import: template, labels, row numbers, one skipped row downloaded', () => {
  test('the template fills in, imports with the roles’ labels, and its one bad row downloads', async () => {
    const { page, unexpectedErrors } = await newPage();
    const domain = uniqueDomain('tpl');
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${riversideId}/users`);
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: `Import users into ${DEMO_ROOT}` });

      // The template: the header the import reads and one example row, as a file.
      const templateLink = dialog.getByRole('link', { name: 'Download a CSV template' });
      const templateDownload = page.waitForEvent('download');
      await templateLink.click();
      const template = await templateDownload;
      expect(template.suggestedFilename()).toBe(IMPORT_TEMPLATE_FILE_NAME);
      const templateText = readFileSync(await template.path(), 'utf8');
      expect(templateText).toBe(
        '"email","user_name","user_role"\r\n"jane.doe@example.org","Jane Doe","Teacher"\r\n',
      );
      await screenshot(page, 'import-template-link');

      // Filled in as a person would: the example replaced, rows added with labels in any case.
      const filled = templateText
        .replace('jane.doe@example.org', `jane@${domain}`)
        .concat(`"max@${domain}","Max Admin"," admin "\r\n`)
        .concat(`"olga@${domain}","Olga Owner","Owner"\r\n`)
        .concat(`"tom@${domain}","Tom Teacher","TEACHER"\r\n`);
      const file = join(csvDir, `${domain}.csv`);
      writeFileSync(file, filled, 'utf8');
      await dialog.getByLabel('CSV file').setInputFiles(file);

      const toAdd = dialog.getByRole('table', { name: 'Users to add' });
      await toAdd.getByText(`jane@${domain}`).waitFor();
      const lineOf = async (email: string) =>
        (await toAdd.getByRole('row').filter({ hasText: email }).innerText()).split('\t').slice(0, 4);
      // Row numbers as the spreadsheet shows them: the header is row 1, Jane row 2.
      expect(await lineOf(`jane@${domain}`)).toEqual(['2', `jane@${domain}`, 'Jane Doe', 'Teacher']);
      expect(await lineOf(`max@${domain}`)).toEqual(['3', `max@${domain}`, 'Max Admin', 'Admin']);
      expect(await lineOf(`tom@${domain}`)).toEqual(['5', `tom@${domain}`, 'Tom Teacher', 'Teacher']);
      const skipped = dialog.getByRole('table', { name: 'Rows that will be skipped' });
      expect(await skipped.getByRole('row').nth(1).innerText()).toBe(
        `4\tolga@${domain}\t${IMPORT_SKIP_MESSAGE.invalid_role}`,
      );
      await screenshot(page, 'import-preview-row-numbers');

      // One skipped row: it downloads all the same, with its columns and its reason.
      const skippedDownload = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download skipped rows' }).click();
      const skippedFile = await skippedDownload;
      expect(skippedFile.suggestedFilename()).toBe('skipped-rows.csv');
      expect(readFileSync(await skippedFile.path(), 'utf8')).toBe(
        '"row","email","user_name","user_role","reason"\r\n' +
          `"4","olga@${domain}","Olga Owner","Owner","${IMPORT_SKIP_MESSAGE.invalid_role}"\r\n`,
      );
      await screenshot(page, 'import-skipped-download');

      await dialog.getByRole('button', { name: 'Import 3 users' }).click();
      await dialog.getByText('3 users were invited by email; 1 row was skipped.').waitFor();
      // The result offers the download too.
      await dialog.getByRole('table', { name: 'Skipped rows' }).getByText(`olga@${domain}`).waitFor();
      await dialog.getByRole('button', { name: 'Download skipped rows' }).waitFor();
      await screenshot(page, 'import-result-one-skipped');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });

      const added = await callApi<{ data: { email: string; role: string }[] }>(
        baseUrl,
        'GET',
        `/organization/${riversideId}/users?limit=100&search=${encodeURIComponent(domain)}`,
        { token: ownerToken },
      );
      expect(added.body.data.map((u) => [u.email, u.role]).sort()).toEqual([
        [`jane@${domain}`, 'user'],
        [`max@${domain}`, 'organization_admin'],
        [`tom@${domain}`, 'user'],
      ]);
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeMembersFound(baseUrl, ownerToken, riversideId, domain);
    }
  });

  test('an information system’s export: First Name and Last Name, no role column, a Teacher each', async () => {
    const { page, unexpectedErrors } = await newPage();
    const domain = uniqueDomain('sis');
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${riversideId}/users`);
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: `Import users into ${DEMO_ROOT}` });
      const file = join(csvDir, `${domain}.csv`);
      writeFileSync(
        file,
        `Student ID,First Name,Last Name,Email Address\r\n1,Ana,Ruiz,ana@${domain}\r\n2,Ben,Okafor,ben@${domain}\r\n`,
        'utf8',
      );
      await dialog.getByLabel('CSV file').setInputFiles(file);
      await dialog.getByText('The file has no role column: everyone in it is added as a Teacher.').waitFor();
      const toAdd = dialog.getByRole('table', { name: 'Users to add' });
      const lineOf = async (email: string) =>
        (await toAdd.getByRole('row').filter({ hasText: email }).innerText()).split('\t').slice(0, 4);
      expect(await lineOf(`ana@${domain}`)).toEqual(['2', `ana@${domain}`, 'Ana Ruiz', 'Teacher']);
      expect(await lineOf(`ben@${domain}`)).toEqual(['3', `ben@${domain}`, 'Ben Okafor', 'Teacher']);
      await screenshot(page, 'import-preview-sis-columns');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'phone-import-preview-sis-columns');
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeMembersFound(baseUrl, ownerToken, riversideId, domain);
    }
  });
});
