/**
 * JSON text safe to show: JSON.stringify leaves DEL, the C1 controls (U+0080–U+009F, among them
 * CSI U+009B), the line and paragraph separators and the bidirectional overrides raw; these write
 * them as \uXXXX escapes, so a JSON report or baseline shown in a terminal or an editor cannot be
 * reordered or take control. The JSON still parses to the very same strings (these characters only
 * occur inside strings). Used by the CLI's formats and by the baseline file (node/baseline).
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
