import { z } from 'zod';

/**
 * Zod compiles fast parsers with `new Function` after probing whether it may; under our CSP (no
 * 'unsafe-eval', CONTRACT §1) the probe itself is reported as a violation. Parsing without it is fast
 * enough for forms and answers. Imported first, before any schema parses (the session is read on import).
 */
z.config({ jitless: true });
