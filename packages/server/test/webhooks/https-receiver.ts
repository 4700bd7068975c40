import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/** A CA and a server certificate it signed, valid for localhost, receiver.test, 127.0.0.1 and ::1. */
export interface TestCertificates {
  caCert: string;
  serverKey: string;
  serverCert: string;
}

/** One request as the receiver saw it, with the raw body bytes. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

/** A running HTTPS receiver on 127.0.0.1 that records every request it gets. */
export interface TestReceiver {
  port: number;
  url: (path: string) => string;
  received: ReceivedRequest[];
  close: () => Promise<void>;
}

/** A handler answers after the body has been read; it may also never answer. */
export type ReceiverHandler = (request: ReceivedRequest, response: ServerResponse) => void;

/** Generates a throwaway CA and a server certificate signed by it. */
export async function createTestCertificates(commonName = 'CMS Test CA'): Promise<TestCertificates> {
  const ca = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: 'receiver.test' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { caCert: ca.cert, serverKey: server.private, serverCert: server.cert };
}

/** Starts an HTTPS receiver on 127.0.0.1 with a random port. */
export async function startReceiver(certificates: TestCertificates, handler: ReceiverHandler): Promise<TestReceiver> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer(
    { key: certificates.serverKey, cert: certificates.serverCert },
    (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const entry: ReceivedRequest = {
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          rawBody: Buffer.concat(chunks),
        };
        received.push(entry);
        handler(entry, response);
      });
    },
  );
  // The sender hangs up on timeouts and oversized answers; that is expected here.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
