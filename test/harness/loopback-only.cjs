// Preloaded (`node --require`) into a third-party server that the tests run, such as the Portkey AI
// Gateway (test/integration/portkeyGateway.ts), which listens on every interface and offers no
// option for the host:
//  - a server that is not told a host listens on 127.0.0.1 only;
//  - the first server that listens prints `loopback-only: listening <port>` on stderr, so that
//    the test can start it on port 0 and learn the port (no port is guessed, none can collide);
//  - every outgoing TCP connection to a host other than the loopback one fails at once, so the
//    server cannot reach outside this machine whatever it is configured to do.
'use strict';
const net = require('node:net');

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

const listen = net.Server.prototype.listen;
let reported = false;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  } else if (args[0] && typeof args[0] === 'object' && args[0].path === undefined && !args[0].host) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  }
  this.once('listening', () => {
    const address = this.address();
    if (reported || !address || typeof address !== 'object') return;
    reported = true;
    process.stderr.write(`loopback-only: listening ${address.port}\n`);
  });
  return listen.apply(this, args);
};

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = args[0];
  const options = Array.isArray(first) ? first[0] : first;
  const host =
    options && typeof options === 'object'
      ? options.path === undefined
        ? (options.host ?? 'localhost')
        : undefined
      : typeof args[1] === 'string'
        ? args[1]
        : typeof first === 'number'
          ? 'localhost'
          : undefined;
  if (host !== undefined && !LOOPBACK.has(String(host).replace(/^\[|\]$/g, ''))) {
    const error = new Error(`loopback-only: refused a connection to ${host} (the tests talk to 127.0.0.1 only)`);
    error.code = 'ECONNREFUSED';
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};
