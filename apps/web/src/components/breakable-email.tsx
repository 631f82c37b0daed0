import { Fragment } from 'react';

/**
 * An email address that a narrow column (a phone) breaks at its parts, before the @ and after each dot,
 * never letter by letter: put it in a cell with `overflow-wrap: break-word` (which breaks inside a part
 * only when the part alone is wider than the column), not `anywhere` (which lets an auto-width table
 * squeeze the column to one letter). The text is the address unchanged.
 */
export function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?=@)|(?<=\.)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
