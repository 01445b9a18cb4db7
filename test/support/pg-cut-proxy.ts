/**
 * A TCP relay between a client and PostgreSQL that can lose a reply on purpose: armed, it passes a
 * COMMIT on to the server and then cuts both connections instead of relaying the answer. The
 * server commits; the client only sees its connection drop. This is the one lost connection after
 * which a write may or may not have happened (issue 13, What-to-build 6).
 */
import net from 'node:net';

/** The simple-protocol Query message node-postgres sends for client.query('COMMIT'). */
const COMMIT_QUERY = (() => {
  const text = Buffer.from('COMMIT\0', 'utf8');
  const head = Buffer.alloc(5);
  head.write('Q', 0, 'ascii');
  head.writeInt32BE(4 + text.byteLength, 1);
  return Buffer.concat([head, text]);
})();

export interface CutProxy {
  port: number;
  /** The next COMMIT through the relay gets no answer: its connection is cut once the server replies. */
  armCommitCut(): void;
  /** How many COMMIT replies were dropped so far. */
  readonly cuts: number;
  close(): Promise<void>;
}

export async function startCutProxy(target: { host: string; port: number }): Promise<CutProxy> {
  let armed = false;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let cutOnReply = false;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (data: Buffer) => {
      if (armed && data.includes(COMMIT_QUERY)) {
        armed = false;
        cutOnReply = true;
      }
      upstream.write(data);
    });
    upstream.on('data', (data: Buffer) => {
      if (cutOnReply) {
        cuts++;
        cut();
        return;
      }
      client.write(data);
    });
    for (const s of [client, upstream]) {
      s.on('error', cut);
      s.on('close', () => {
        sockets.delete(s);
        cut();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the relay has no port');
  return {
    port: address.port,
    armCommitCut: () => void (armed = true),
    get cuts() {
      return cuts;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
