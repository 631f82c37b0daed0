/** The shared frame of every mail: plain text as written, HTML with the same words and one button. */

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export interface MailContent {
  greeting: string;
  /** Paragraphs before the code. */
  intro: string[];
  /** A code to type, and the link to the screen that takes it; a notice has neither. */
  code?: { label: string; value: string };
  action?: { label: string; url: string };
  /** Paragraphs after the link. */
  outro: string[];
}

export function renderText(content: MailContent): string {
  return [
    content.greeting,
    ...content.intro,
    ...(content.code ? [`${content.code.label}: ${content.code.value}`] : []),
    ...(content.action ? [`${content.action.label}:\n${content.action.url}`] : []),
    ...content.outro,
    '— Allot',
  ].join('\n\n');
}

export function renderHtml(content: MailContent): string {
  const p = (text: string) =>
    `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#212529">${escapeHtml(text)}</p>`;
  const code = content.code
    ? `<p style="margin:0 0 8px;font-size:13px;color:#495057">${escapeHtml(content.code.label)}</p>
<p style="margin:0 0 24px;font-size:28px;font-weight:700;letter-spacing:6px;font-family:ui-monospace,Menlo,Consolas,monospace;color:#212529">${escapeHtml(content.code.value)}</p>`
    : '';
  const url = content.action ? escapeHtml(content.action.url) : '';
  const action = content.action
    ? `<p style="margin:0 0 24px"><a href="${url}" style="display:inline-block;background:#3b5bdb;color:#ffffff;text-decoration:none;font-weight:600;padding:10px 18px;border-radius:6px">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#495057">Or open this address: <a href="${url}" style="color:#3b5bdb;word-break:break-all">${url}</a></p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Allot</title></head>
<body style="margin:0;padding:24px;background:#f1f3f5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border:1px solid #dee2e6;border-radius:8px;padding:32px">
<p style="margin:0 0 24px;font-size:18px;font-weight:700;color:#3b5bdb">Allot</p>
${p(content.greeting)}
${content.intro.map(p).join('\n')}
${code}
${action}
${content.outro.map(p).join('\n')}
</div>
</body></html>`;
}
