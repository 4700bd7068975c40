/**
 * A webhook signing secret made in the browser: 32 bytes from Web Crypto's CSPRNG, base64url
 * (43 characters, within the server's 32 to 4096). The server keys its HMACs with the secret's
 * UTF-8 bytes (docs/webhooks.md), so the text shown is exactly what a receiver configures.
 */
export function generateWebhookSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
