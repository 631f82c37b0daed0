import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Answers a CSV file made of `chunks` as they come (CONTRACT §10: exports are streamed, never held in
 * memory). The caller checks access and input before: once the first byte is sent the status is 200.
 */
export function sendCsv(reply: FastifyReply, fileName: string, chunks: AsyncIterable<string>) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(Readable.from(chunks));
}

/** `{name}-{YYYY-MM-DD}.csv`: the day of the export (UTC). */
export const csvFileName = (name: string, now = new Date()) =>
  `${name}-${now.toISOString().slice(0, 10)}.csv`;

/** The page size of an export's reads: a bounded number of rows in memory, whatever the file's size. */
export const EXPORT_BATCH = 1000;
