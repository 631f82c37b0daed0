import type {} from 'vitest';

/** What the global setup hands to the tests (vitest provide/inject). */
declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    /** Where the server sends mail (SMTP_URL); a test that reads mail listens on it. */
    smtpPort: number;
  }
}
