/**
 * The variable the installed command (scripts/launcher-head.sh) moves NODE_EXTRA_CA_CERTS into before it starts
 * node, so that Node does not parse that file at every start; ocrag's https requests trust it (fetch-remote.ts),
 * and programs ocrag starts get it back as NODE_EXTRA_CA_CERTS (config/environment.ts).
 */
export const DEFERRED_CA_CERTS = 'OCRAG_NODE_EXTRA_CA_CERTS';

/**
 * The deferred file, if any. A NODE_EXTRA_CA_CERTS still set was read by Node at start-up (ocrag run as `node
 * ocrag.cjs`): its fetch trusts those certificates already, and nothing is deferred.
 */
export function deferredCaFile(env: NodeJS.ProcessEnv): string | null {
  return env.NODE_EXTRA_CA_CERTS ? null : env[DEFERRED_CA_CERTS] || null;
}
