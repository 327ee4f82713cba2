import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

/** This machine's first address that is not loopback, if it has one. */
export const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && !address.internal && address.family === 'IPv4')?.address;

/** Whether a TCP connection to host:port is accepted. */
export function reaches(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
