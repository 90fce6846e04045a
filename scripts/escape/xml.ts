/**
 * XML 1.0 allows tab, line feed, carriage return and the characters from U+0020 up, less the surrogates,
 * U+FFFE and U+FFFF. A document holding any other character is not XML (a feed reader refuses all of it), so
 * each one is replaced by its visible escape (`\x01`, `\ud800`).
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are control characters
  /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlCharacters(text: string): string {
  return text.replace(NOT_XML, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}
