/**
 * A stand-in for the Studio's live preview panel, on its own origin: `/frame?src=<url>` frames the
 * site's preview address and keeps every preview message the frame posts (`window.received`);
 * `window.send(message)` posts a message to the frame, as the Studio posts each draft.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Studio stand-in</title></head><body>
<iframe id="site" style="width:900px;height:700px"></iframe>
<script>
  const src = new URL(location.href).searchParams.get('src');
  const frame = document.getElementById('site');
  frame.src = src;
  window.received = [];
  window.addEventListener('message', (event) => {
    if (event.source === frame.contentWindow && event.origin === new URL(src).origin) window.received.push(event.data);
  });
  window.send = (message) => frame.contentWindow.postMessage(message, new URL(src).origin);
</script></body></html>`;

export interface StudioStub {
  origin: string;
  close(): Promise<void>;
}

export async function startStudioStub(): Promise<StudioStub> {
  const server: Server = createServer((request, response) => {
    if (!request.url?.startsWith('/frame')) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
