import { describe, expect, it } from 'vitest';
import { mailWords, NOT_DELIVERED } from './mail-words';

describe('mailWords', () => {
  it('says "sent" only where the installation delivers mail', () => {
    const smtp = mailWords('smtp');
    expect(smtp.queued).toBe(false);
    expect(smtp.imported(27)).toBe('27 users were invited by email');
    expect(smtp.resent('a@b.test')).toEqual({
      title: 'Invitation sent',
      message: 'Invitation sent to a@b.test',
    });
    expect(smtp.userAdded('Ann')).toBe('Ann was added and invited by email.');
  });

  it('says "queued", and who can read it, without SMTP and before the server has answered', () => {
    for (const words of [mailWords('log'), mailWords(undefined)]) {
      expect(words.queued).toBe(true);
      expect(words.imported(27)).toBe('27 users were added; their invitations are queued, not sent');
      expect(words.resent('a@b.test').title).toBe('Invitation queued');
      expect(words.userAdded('Ann')).toContain(NOT_DELIVERED);
      for (const text of [
        words.userAdded('Ann'),
        words.addUserNote('School'),
        words.importNote,
        words.ownerNote,
        words.resent('a@b.test').message,
        words.newCode.rest,
        words.resetAsked.rest,
        words.invoiceMailed('a@b.test'),
      ]) {
        expect(text).not.toMatch(/\bsent (to|you)\b|by email|on its way/);
      }
    }
  });
});
