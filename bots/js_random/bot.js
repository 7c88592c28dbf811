#!/usr/bin/env node
// js_random: a Trick Arena bot in JavaScript. It plays any game: each decision it answers a
// legal action chosen at random, from a generator seeded by the seed StartMatch gives it, so a
// match replays exactly. It needs nothing but `legal_actions`; the whole observation is in
// `observation_json` for a bot that wants more.
//
// It serves the arena.v1.Player service of ../../proto/arena/v1/player.proto (loaded at run
// time) and the standard gRPC health check, on 127.0.0.1:$ARENA_BOT_PORT (or --port N), or on the
// Unix socket $ARENA_BOT_SOCKET (or --socket PATH), as the arena asks of a sandboxed bot.
//
//   node bots/js_random/bot.js --port 50051          then seat it as grpc://127.0.0.1:50051
//   arena play toy --seats "cmd:node bots/js_random/bot.js,random"   (the arena launches it)
//
// Options: --port N, --host ADDR (default 127.0.0.1), --socket PATH, --tls-cert PEM --tls-key PEM (serve TLS),
// --greedy (answer the first legal action instead of a random one). docs/grpc-bots.md explains
// the protocol.
'use strict';

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { HealthImplementation } = require('grpc-health-check');

const PROTOCOL_VERSION = 1;
const PROTO = process.env.ARENA_PROTO || path.join(__dirname, '..', '..', 'proto', 'arena', 'v1', 'player.proto');
const VERSION = require('./package.json').version;

function parseArgs(argv) {
  const options = {
    port: Number(process.env.ARENA_BOT_PORT || 0),
    host: process.env.ARENA_BOT_HOST || '127.0.0.1',
    socket: process.env.ARENA_BOT_SOCKET || '',
    greedy: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--port') options.port = Number(argv[++i]);
    else if (arg === '--host') options.host = argv[++i];
    else if (arg === '--socket') options.socket = argv[++i];
    else if (arg === '--tls-cert') options.tlsCert = argv[++i];
    else if (arg === '--tls-key') options.tlsKey = argv[++i];
    else if (arg === '--greedy') options.greedy = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new Error(`bad port ${options.port}`);
  }
  return options;
}

// mulberry32: a small seeded generator (the arena sends a 64-bit seed; its low 32 bits suffice).
function generator(seed) {
  let state = Number(BigInt.asUintN(32, BigInt(seed || 0)));
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeService(options) {
  const sessions = new Map(); // session_id -> { random, game, seat }

  function session(call, callback) {
    const found = sessions.get(call.request.session_id);
    if (!found) {
      callback({ code: grpc.status.FAILED_PRECONDITION, details: `unknown session ${call.request.session_id}` });
    }
    return found;
  }

  return {
    Describe(call, callback) {
      callback(null, {
        name: options.greedy ? 'js_first' : 'js_random',
        version: VERSION,
        protocol_version: PROTOCOL_VERSION,
        games: [], // every game
        summary: options.greedy ? 'the first legal action (JavaScript)' : 'a seeded random legal action (JavaScript)',
        owner_key: process.env.ARENA_OWNER_KEY || '', // a ladder's endpoint key of this bot's author
      });
    },

    StartMatch(call, callback) {
      const request = call.request;
      sessions.set(request.session_id, { random: generator(request.seed), game: request.game, seat: request.seat });
      callback(null, {});
    },

    Decide(call, callback) {
      const state = session(call, callback);
      if (!state) return;
      const legal = call.request.legal_actions;
      if (legal.length === 0) {
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'no legal actions' });
        return;
      }
      const index = options.greedy ? 0 : Math.floor(state.random() * legal.length);
      callback(null, { action: legal[index] });
    },

    EndHand(call, callback) {
      if (session(call, callback)) callback(null, {});
    },

    EndMatch(call, callback) {
      sessions.delete(call.request.session_id);
      callback(null, {});
    },
  };
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const definition = protoLoader.loadSync(PROTO, {
    keepCase: true, // field names as in the .proto: session_id, legal_actions, ...
    longs: String,
    enums: Number,
    defaults: true,
    oneofs: true,
  });
  const arena = grpc.loadPackageDefinition(definition).arena.v1;
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 4 * 1024 * 1024, // observations are a few kilobytes
    'grpc.max_send_message_length': 64 * 1024, // answers are a few bytes
  });
  server.addService(arena.Player.service, makeService(options));
  const health = new HealthImplementation({ '': 'NOT_SERVING', 'arena.v1.Player': 'NOT_SERVING' });
  health.addToServer(server);

  const credentials = options.tlsCert
    ? grpc.ServerCredentials.createSsl(null, [
        { cert_chain: fs.readFileSync(options.tlsCert), private_key: fs.readFileSync(options.tlsKey) },
      ])
    : grpc.ServerCredentials.createInsecure();
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const address = options.socket ? `unix:${options.socket}` : `${host}:${options.port}`;
  server.bindAsync(address, credentials, (error, port) => {
    if (error) {
      console.error(`js_random: cannot listen on ${address}: ${error.message}`);
      process.exit(1);
    }
    health.setStatus('', 'SERVING');
    health.setStatus('arena.v1.Player', 'SERVING');
    console.log(`js_random: serving on ${options.socket ? address : `${options.tlsCert ? 'grpcs' : 'grpc'}://${host}:${port}`}`);
  });

  function stop() {
    health.setStatus('', 'NOT_SERVING');
    const force = setTimeout(() => {
      server.forceShutdown();
      process.exit(0);
    }, 1000);
    server.tryShutdown(() => {
      clearTimeout(force);
      process.exit(0);
    });
  }
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
