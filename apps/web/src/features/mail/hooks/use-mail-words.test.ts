import { describe, expect, it } from 'vitest';
import { mailWords, NOT_DELIVERED } from './use-mail-words';

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
    expect(smtp.resentMany('2 people')).toEqual({
      title: 'Invitations sent',
      message: 'Invitations sent again to 2 people.',
    });
    expect(smtp.emailChange.asked('new@b.test', 'old@b.test').title).toBe('Confirmation sent');
    expect(smtp.creditAlerts.fired).toBe('email sent, again after the next top-up');
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
        words.resentMany('2 people').message,
        words.emailChange.asked('new@b.test', 'old@b.test').message,
        words.emailChange.note,
        words.emailChange.pending,
        words.emailChange.codePage,
        words.creditAlerts.intro('School'),
        words.creditAlerts.fired,
        words.creditAlerts.saved('School', '10%'),
        words.request.askNote('District'),
        words.request.asked,
        words.request.declined('School'),
        words.resetIntro,
        words.resetCode,
        words.invoiceTo,
      ]) {
        expect(text).not.toMatch(
          /\bsent (to|you|again)\b|by email|on its way|went to|get (a|one) (e)?mail|emailed|mailed (to|there)|email sent|is sent|an email at|told why by mail/,
        );
      }
    }
  });
});
