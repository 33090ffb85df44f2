// One repository's session as a server that started a panel holds it: MCP over the SDK client (in memory) and the
// panel's HTTP API on 127.0.0.1, both answering from that one session.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../../src/mcp/server.js';
import { RepoSessions } from '../../src/session/repo-sessions.js';
import type { RepoSession } from '../../src/session/session.js';
import { startPanel, type Panel } from '../../src/ui/panel.js';

export interface SessionSurfaces {
  sessions: RepoSessions;
  session: RepoSession;
  client: Client;
  panel: Panel;
  /** GET `path` of the panel's API, or POST `body` to it, with the token; asserts a 200 and answers its JSON. */
  api(path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export async function openSessionSurfaces(repo: string): Promise<SessionSurfaces> {
  const log = () => undefined;
  const sessions = new RepoSessions({ cwd: repo, log });
  const session = await sessions.get();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServer(sessions, log).connect(serverSide);
  const client = new Client({ name: 'session-surfaces', version: '1' });
  await client.connect(clientSide);
  const panel = await startPanel({ sessions, cwd: repo, flags: {}, port: 0, log });
  const api = async (path: string, body?: unknown) => {
    const res = await fetch(new URL(path, panel.url), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'x-ocrag-token': panel.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    return res.json();
  };
  const close = async () => {
    await client.close();
    await panel.close();
    await sessions.close();
  };
  return { sessions, session, client, panel, api, close };
}
