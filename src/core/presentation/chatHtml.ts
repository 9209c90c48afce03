/**
 * The chat panel's page. Pure (no `vscode` import): the panel passes the webview's CSP source and asset
 * URIs. Strict Content-Security-Policy: nothing by default, the one script only with this load's nonce,
 * styles, fonts and images only from the extension's own resources (images also as `data:`).
 */
import { randomBytes } from 'node:crypto';

export interface ChatHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** From `createNonce()`, new for every page. */
  nonce: string;
  /** `dist/webview/chat.js` as a webview URI. */
  scriptUri: string;
  /** `media/chat.css` (and any other style sheets) as webview URIs. */
  styleUris: string[];
  /** `dist/webview/codicon.css` as a webview URI. */
  codiconUri: string;
  title: string;
}

/** A nonce for the page's script: 128 bits from the system's random source. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

export function chatHtml(options: ChatHtmlOptions): string {
  // These go into the policy itself: a `;` or `,` would start another directive or policy.
  if (!/^[A-Za-z0-9+/=_-]+$/.test(options.nonce)) throw new Error('chatHtml: the nonce must be base64');
  const source = options.cspSource.trim();
  if (source === '' || /[;,\u0000-\u001f\u007f]/.test(source)) throw new Error('chatHtml: invalid CSP source');
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${options.nonce}'`,
    `style-src ${source}`,
    `font-src ${source}`,
    `img-src ${source} data:`,
  ].join('; ');
  const styles = [options.codiconUri, ...options.styleUris]
    .map((uri) => `    <link rel="stylesheet" href="${escape(uri)}">`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escape(csp)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
    <title>${escape(options.title)}</title>
  </head>
  <body>
    <div id="app" class="app"></div>
    <script nonce="${escape(options.nonce)}" src="${escape(options.scriptUri)}"></script>
  </body>
</html>
`;
}
