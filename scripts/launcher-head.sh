#!/bin/sh
":" //; if [ -n "${NODE_EXTRA_CA_CERTS-}" ]; then export OCRAG_NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"; unset NODE_EXTRA_CA_CERTS; else unset OCRAG_NODE_EXTRA_CA_CERTS; fi
":" //; exec node -- "$0" "$@"
// The installed `ocrag` and `git-ocrag` (package.json "bin") is this file, dist/cli/ocrag.cjs: run as a program, a
// POSIX sh script (the lines above, which are also JavaScript: a string, then a comment); run by node, the program.
// scripts/bundle-cli.mjs puts these lines (scripts/launcher-head.sh) in place of the bundle's `#!/usr/bin/env node`.
//
// Node parses the file NODE_EXTRA_CA_CERTS names when it starts, whatever the program does: 40 ms of a 60 ms
// `node -e 0` with a 220 KB system bundle, paid by every search and hook run for certificates only an https request
// uses. So sh moves the variable to OCRAG_NODE_EXTRA_CA_CERTS (and drops one inherited without it, which Node would
// not trust), which ocrag's https requests trust
// (src/util/fetch-remote.ts) and which programs ocrag starts get back as NODE_EXTRA_CA_CERTS
// (src/config/environment.ts), and runs `exec node`: the node on PATH, as `#!/usr/bin/env node` found it, with this
// file as sh was given it (npm's links, `npm link`, `npm install -g`). Node resolves the links, as it does for every
// program it runs, so no process of sh's does; and sh never reads past `exec`.
