/** Full stops that link finders take for the dot of a domain name: ASCII, ideographic, fullwidth, halfwidth. */
const DOT = /(?<=[\p{L}\p{N}])[.\u3002\uFF0E\uFF61](?=[\p{L}\p{N}])/gu;

/**
 * Text people typed (an organization's name), to show in a mail as plain text and never as a link. Mail clients
 * make links of whatever looks like an address, in the plain text part and in HTML text alike
 * (`http://evil.test/pay`, `www.evil.test`, `evil.test`, `pay@evil.test`), so escaping the HTML is not enough:
 * the marks that make it look so are bracketed, as security notices "defang" addresses
 * (`http[:]//evil[.]test/pay`). A name without them is unchanged.
 */
export function unlinked(text: string): string {
  return text
    .replace(/:(?=\/\/)/g, '[:]')
    .replace(DOT, (dot) => `[${dot}]`)
    .replace(/(?<=[\p{L}\p{N}._%+-])@(?=[\p{L}\p{N}])/gu, '[@]');
}
