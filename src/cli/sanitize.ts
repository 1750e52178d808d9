/**
 * Makes untrusted strings (file names) safe to print: control characters, including the ESC that
 * starts terminal escape sequences and the C1 controls, are shown as \xNN / \u{NN} instead.
 */
export function sanitizeForTerminal(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * JSON.stringify leaves DEL, the C1 controls (U+0080–U+009F, among them CSI U+009B), the line and
 * paragraph separators and the bidirectional overrides raw: writes them as \uXXXX escapes, so a
 * JSON or SARIF report shown in a terminal or an editor cannot be reordered or take control. The
 * JSON still parses to the very same strings (these characters only occur inside strings).
 */
export function escapeJsonControls(json: string): string {
  return json.replace(JSON_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const JSON_CONTROLS = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const JSON_CONTROL = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Whether {@link escapeJsonControls} would change a JSON text holding this string. */
export function hasJsonControls(s: string): boolean {
  return JSON_CONTROL.test(s);
}
