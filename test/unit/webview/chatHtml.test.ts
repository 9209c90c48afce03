import assert from 'node:assert/strict';
import { chatHtml, createNonce } from '../../../src/core/presentation/chatHtml';

const options = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'abc123+/=',
  scriptUri: 'https://x/dist/webview/chat.js',
  styleUris: ['https://x/media/chat.css'],
  codiconUri: 'https://x/dist/webview/codicon.css',
  title: 'Chat <1> & "quotes"',
};

describe('webview: chat page', () => {
  it('has a strict Content-Security-Policy: nothing by default, the script only with the nonce', () => {
    const html = chatHtml(options);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
    assert.equal(
      csp,
      'default-src &#39;none&#39;; script-src &#39;nonce-abc123+/=&#39;; style-src https://file+.vscode-resource.vscode-cdn.net; font-src https://file+.vscode-resource.vscode-cdn.net; img-src https://file+.vscode-resource.vscode-cdn.net data:',
    );
    assert.ok(!html.includes('unsafe-inline'));
    assert.match(html, /<script nonce="abc123\+\/=" src="https:\/\/x\/dist\/webview\/chat.js"><\/script>/);
    assert.equal(html.match(/<script/g)?.length, 1);
  });

  it('escapes what it interpolates', () => {
    const html = chatHtml({
      ...options,
      title: '</title><script>alert(1)</script>',
      scriptUri: 'https://x/"onload="alert(1)',
    });
    assert.ok(html.includes('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>'));
    assert.ok(html.includes('src="https://x/&quot;onload=&quot;alert(1)"'));
  });

  it('refuses a nonce or source that would change the policy', () => {
    assert.throws(() => chatHtml({ ...options, nonce: "x' 'unsafe-inline" }));
    assert.throws(() => chatHtml({ ...options, cspSource: 'https://x; script-src *' }));
  });

  it('makes a new random nonce every time', () => {
    const a = createNonce();
    assert.match(a, /^[A-Za-z0-9+/=]{22,}$/);
    assert.notEqual(a, createNonce());
  });
});
