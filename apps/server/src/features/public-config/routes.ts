import { type PublicConfig, publicConfigSchema } from '@allot/domain/public-config';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * GET /api/public-config (issue 36): what the operator publishes for the footer, from the environment read at
 * start (SUPPORT_EMAIL, TERMS_URL, PRIVACY_URL). Public: the sign-in screen's footer shows it too.
 */
export function publicConfigRoutes(config: PublicConfig): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/public-config',
      {
        config: { public: true },
        schema: {
          operationId: 'getPublicConfig',
          tags: ['public-config'],
          summary: 'What the operator publishes',
          description:
            'The support address and the addresses of the terms of use and the privacy notice that this installation’s operator set (`SUPPORT_EMAIL`, `TERMS_URL`, `PRIVACY_URL`, read when the server starts); each is `null` until set, and the web app then shows a page saying it is not published yet. Public: needs no token.',
          response: { 200: publicConfigSchema },
        },
      },
      async (): Promise<PublicConfig> => config,
    );
  };
}
