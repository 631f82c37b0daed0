import type {} from 'vitest';

/** What the global setup hands to the tests (vitest provide/inject). */
declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
  }
}
