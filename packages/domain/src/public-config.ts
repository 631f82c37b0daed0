import { z } from 'zod';

/*
 * What an installation's operator publishes for the footer (spec §2: contact, terms, privacy; issue 36), read
 * by the server from its environment at start, so one build of the web app serves every installation.
 */

/** The environment variable of each setting: the server reads them, the web app's pages name them. */
export const PUBLIC_CONFIG_VARIABLES = {
  supportEmail: 'SUPPORT_EMAIL',
  termsUrl: 'TERMS_URL',
  privacyUrl: 'PRIVACY_URL',
} as const;

export const publicConfigSchema = z
  .object({
    supportEmail: z
      .string()
      .nullable()
      .describe('Where people write for help (`SUPPORT_EMAIL`); null until the operator sets it'),
    termsUrl: z
      .string()
      .nullable()
      .describe('The terms of use, an http(s) address (`TERMS_URL`); null until the operator sets it'),
    privacyUrl: z
      .string()
      .nullable()
      .describe('The privacy notice, an http(s) address (`PRIVACY_URL`); null until the operator sets it'),
  })
  .meta({ id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const UNPUBLISHED: PublicConfig = { supportEmail: null, termsUrl: null, privacyUrl: null };

/** Only web addresses: a `javascript:` or `data:` address in a link would run in the panel's page. */
export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}
