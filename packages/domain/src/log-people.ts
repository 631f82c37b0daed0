import { z } from 'zod';
import { emailOut, uuidOut } from './text';

/** A person a log names: by name inside the organization's subtree; outside it, no id and no email. */
export const personInLogSchema = z
  .object({ id: uuidOut().nullable(), name: z.string(), email: emailOut().nullable() })
  .meta({ id: 'PersonInLog' });
export type PersonInLog = z.infer<typeof personInLogSchema>;
