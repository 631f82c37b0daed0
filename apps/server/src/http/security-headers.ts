import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * CONTRACT §1: every answer carries these. The web app is one Vite bundle of script files, so scripts come
 * from this origin only and never inline. Styles allow inline: Mantine writes its theme variables into a
 * <style> element and positions popovers with style attributes. No `upgrade-insecure-requests`: a local
 * run serves plain http on localhost, and the browser would ask for its own scripts over https.
 */
export const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'base-uri': ["'self'"],
      'connect-src': ["'self'"],
      'font-src': ["'self'", 'data:'],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
      'img-src': ["'self'", 'data:'],
      'object-src': ["'none'"],
      'script-src': ["'self'"],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'", "'unsafe-inline'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
  // frame-ancestors is the rule; the old header says the same to browsers that predate it.
  xFrameOptions: { action: 'deny' },
};

// The same options, typed by helmet's ESM declarations (@fastify/helmet reads its CommonJS ones).
const applyHelmet = helmet(HELMET_OPTIONS as HelmetOptions);

/**
 * helmet's headers, computed once: with these options they are the same on every answer, and helmet would
 * build them again for each (the policy's text among them).
 */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  applyHelmet({} as never, response as never, () => {});
  return headers;
}
const PAGE_HEADERS = helmetHeaders();
// API answers are per person and change: no browser or proxy keeps them.
const API_HEADERS = { ...PAGE_HEADERS, 'cache-control': 'no-store' };

/** The headers of every answer, also on one Fastify makes before any route or hook runs (a malformed path). */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.headers(reply.request.url.startsWith('/api') ? API_HEADERS : PAGE_HEADERS);
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (_request, reply, done) => {
    setSecurityHeaders(reply);
    done();
  });
}
