/** What other features may use of `mail`. They import '../mail', never its files: biome.json's noRestrictedImports holds it. */
export { type MailContent, renderHtml, renderText } from './mail-layout';
export { type Mail, queueMail, queueMails } from './outbox';
export { type MailSettings, publicLink } from './public-links';
export { unlinked } from './unlinked';
