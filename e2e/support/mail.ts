/** The six-digit code of a mail's text ("code: 123456"). */
export function codeIn(text: string): string {
  const match = /code: (\d{6})\b/.exec(text);
  if (!match?.[1]) throw new Error(`no code in the mail:\n${text}`);
  return match[1];
}

/** The first link of a mail's text. */
export function linkIn(text: string): string {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in the mail:\n${text}`);
  return match[0];
}
