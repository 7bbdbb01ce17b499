/**
 * LLVM names and strings are byte strings; ssakit keeps them as JS strings. The mapping is
 * UTF-8, with Python's "surrogateescape" for bytes that are not valid UTF-8: such a byte b
 * becomes the lone surrogate U+DC00+b, and encoding turns it back into b. So every byte
 * string survives decode → encode exactly (`@"\FF"` prints as `@"\FF"`), and valid UTF-8
 * names read as the characters they spell (`@"h\C3\A9llo"` is the string "héllo").
 */

/** Decodes bytes (UTF-8, invalid bytes as U+DC80..U+DCFF) to a string. */
export function decodeNameBytes(bytes: ArrayLike<number>): string {
  let out = '';
  const n = bytes.length;
  for (let k = 0; k < n; ) {
    const b = bytes[k];
    if (b < 0x80) {
      out += String.fromCharCode(b);
      k++;
      continue;
    }
    // expected length and minimum code point of a sequence starting with b
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let cp = len === 2 ? b & 0x1f : len === 3 ? b & 0x0f : b & 0x07;
    let ok = len > 0 && k + len <= n;
    for (let j = 1; ok && j < len; j++) {
      const c = bytes[k + j];
      if ((c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    if (ok && ((len === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len === 4 && (cp < 0x10000 || cp > 0x10ffff)))) ok = false;
    if (!ok) {
      out += String.fromCharCode(0xdc00 + b);
      k++;
      continue;
    }
    out += String.fromCodePoint(cp);
    k += len;
  }
  return out;
}

/** Encodes a string to bytes: UTF-8, with U+DC80..U+DCFF standing for the raw byte. */
export function encodeNameBytes(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out.push(c);
      continue;
    }
    if (c >= 0xdc80 && c <= 0xdcff) {
      out.push(c - 0xdc00);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return out;
}

/**
 * `"…"` as LLVM prints a quoted name or c-string: printable ASCII as is, except `"` (`\22`)
 * and a backslash (`\\`); every other byte as `\XX`.
 */
export function quoteBytes(bytes: ArrayLike<number>): string {
  let s = '"';
  for (let k = 0; k < bytes.length; k++) {
    const b = bytes[k];
    if (b >= 0x20 && b <= 0x7e && b !== 0x22 && b !== 0x5c) s += String.fromCharCode(b);
    else if (b === 0x5c) s += '\\\\';
    else s += '\\' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
  }
  return s + '"';
}
