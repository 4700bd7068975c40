import { connect, type Socket } from 'node:net';

/** What came back on a raw socket: status line parsed, headers lower-cased, body as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the server closed the connection. */
  elapsedMs: number;
}

/** Opens a TCP connection to the server of `baseUrl`. */
export function openSocket(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads everything until the server closes the socket, and parses the one HTTP answer in it. */
export function readAnswer(socket: Socket, started = Date.now()): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no HTTP answer before close: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: text.slice(split + 4),
        elapsedMs: Date.now() - started,
      });
    });
  });
}

/** Sends raw bytes on a fresh connection and returns the answer. */
export async function rawRequest(baseUrl: string, bytes: string | Buffer): Promise<RawAnswer> {
  const started = Date.now();
  const socket = await openSocket(baseUrl);
  const answer = readAnswer(socket, started);
  socket.write(bytes);
  return answer;
}
