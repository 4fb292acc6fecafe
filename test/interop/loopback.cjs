// Preloaded (`node --require`) into a tool that has no host option and would
// listen on every interface (@open-rpc/mock-server: `server.listen(port)`):
// binds its servers to 127.0.0.1 instead, and prints
// "listening on 127.0.0.1:<port>" once one is actually accepting connections
// (the tool prints "Server Started" before that).
"use strict";
const net = require("node:net");

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (port, ...rest) {
  if (typeof port === "number" || (typeof port === "string" && /^\d+$/.test(port))) {
    if (typeof rest[0] === "string") rest[0] = "127.0.0.1";
    else rest.unshift("127.0.0.1");
    this.once("listening", () => process.stderr.write(`listening on 127.0.0.1:${this.address().port}\n`));
  }
  return listen.call(this, port, ...rest);
};
