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

// The JSON escapes live in core/report (the baseline file of node/baseline uses them too).
export { escapeJsonControls, hasJsonControls } from '../core/report/jsonEscape';
