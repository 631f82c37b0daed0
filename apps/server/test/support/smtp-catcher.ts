import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it receives, for tests of
 * delivery. It can be stopped and started again on the same port to play an outage.
 */
export async function startSmtpCatcher(port = 0) {
  const received: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  let server: SMTPServer | null = null;
  let boundPort = port;

  async function start() {
    if (server) return;
    const next = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          received.push({
            ...parseMessage(raw),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          for (const wake of waiters) wake();
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(boundPort, '127.0.0.1', () => resolve());
    });
    const address = next.server.address();
    boundPort = typeof address === 'object' && address ? address.port : boundPort;
    server = next;
  }

  async function stop() {
    const current = server;
    server = null;
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await start();
  return {
    received,
    get port() {
      return boundPort;
    },
    get url() {
      return `smtp://127.0.0.1:${boundPort}`;
    },
    start,
    stop,
    /** The first received mail to this address that matches, waiting for it up to `timeoutMs`. */
    async waitFor(to: string, match: (mail: CaughtMail) => boolean = () => true, timeoutMs = 20_000) {
      const find = () => received.find((m) => m.to.includes(to.toLowerCase()) && match(m));
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find();
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
  };
}

export type SmtpCatcher = Awaited<ReturnType<typeof startSmtpCatcher>>;

/** Enough MIME for the mails nodemailer writes: headers, multipart/alternative, quoted-printable, base64. */
export function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const { headers, body } = splitEntity(raw);
  const subject = decodeWords(headers.subject ?? '');
  const parts: Record<string, string> = {};
  collectParts(headers, body, parts);
  return { subject, text: parts['text/plain'] ?? '', html: parts['text/html'] ?? '' };
}

function splitEntity(entity: string): { headers: Record<string, string>; body: string } {
  const at = entity.search(/\r?\n\r?\n/);
  const head = at < 0 ? entity : entity.slice(0, at);
  const body = at < 0 ? '' : entity.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function collectParts(headers: Record<string, string>, body: string, parts: Record<string, string>) {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitEntity(chunk.replace(/^\r?\n/, ''));
      collectParts(part.headers, part.body, parts);
    }
    return;
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const decoded =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  parts[type.split(';')[0]?.trim().toLowerCase() ?? 'text/plain'] = decoded.replace(/\r\n/g, '\n').trimEnd();
}

function decodeQuotedPrintable(value: string): string {
  const bytes = value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}
