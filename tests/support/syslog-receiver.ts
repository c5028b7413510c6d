// A syslog receiver for tests: a TCP (or, given a key and certificate, TLS) server on a 127.0.0.1 port that reads
// RFC 6587 octet-counted frames (`MSG-LEN SP SYSLOG-MSG`), records every message, and closes a connection when the
// sender closes its side (as rsyslog and syslog-ng do). stop() closes it, dropping open connections; start() listens
// again on the same port. Always `await receiver.stop()`.
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";

export interface SyslogReceiver {
  port: number;
  /** Every message received, in order, without its frame. */
  messages: string[];
  /** Bytes that were not a well-formed frame (a test expects none). */
  garbage: string[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Splits octet-counted frames off the front of `buffer`; returns the messages and what is left. */
export function readFrames(buffer: Buffer): { messages: string[]; rest: Buffer; bad: string | null } {
  const messages: string[] = [];
  let rest = buffer;
  for (;;) {
    const space = rest.indexOf(0x20);
    if (space === -1) return { messages, rest, bad: rest.length > 10 ? rest.toString("utf8") : null };
    const length = rest.subarray(0, space).toString("ascii");
    if (!/^[1-9]\d*$/.test(length)) return { messages, rest: Buffer.alloc(0), bad: rest.toString("utf8") };
    const end = space + 1 + Number(length);
    if (rest.length < end) return { messages, rest, bad: null };
    messages.push(rest.subarray(space + 1, end).toString("utf8"));
    rest = rest.subarray(end);
  }
}

export async function startSyslogReceiver({
  tls,
}: { tls?: { key: string; cert: string } } = {}): Promise<SyslogReceiver> {
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  const receiver: SyslogReceiver = {
    port: 0,
    messages: [],
    garbage: [],
    async start() {
      const onConnection = (socket: Socket) => {
        sockets.add(socket);
        let pending: Buffer = Buffer.alloc(0);
        socket.on("data", (chunk: Buffer) => {
          const { messages, rest, bad } = readFrames(Buffer.concat([pending, chunk]));
          receiver.messages.push(...messages);
          if (bad !== null) receiver.garbage.push(bad);
          pending = rest;
        });
        socket.on("error", () => {});
        socket.on("close", () => sockets.delete(socket));
      };
      server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, onConnection) : createTcpServer(onConnection);
      await new Promise<void>((resolve, reject) => {
        server!.once("error", reject);
        server!.listen(receiver.port, "127.0.0.1", () => resolve());
      });
      receiver.port = (server.address() as AddressInfo).port;
    },
    async stop() {
      const closing = server;
      server = null;
      if (!closing) return;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
  await receiver.start();
  return receiver;
}
