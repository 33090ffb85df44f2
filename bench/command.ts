import fs from 'node:fs';

/**
 * A build's command as a shell starts it: the file itself, through its first line (the installed command's sh
 * launcher, which keeps NODE_EXTRA_CA_CERTS from Node's start-up, or an older build's `#!/usr/bin/env node`), so
 * what is timed is what a person, an agent or a git hook waits for; a file without one, with node.
 */
export function commandOf(entry: string): [string, string[]] {
  const fd = fs.openSync(entry, 'r');
  try {
    const head = Buffer.alloc(2);
    fs.readSync(fd, head, 0, 2, 0);
    return head.toString() === '#!' ? [entry, []] : [process.execPath, [entry]];
  } finally {
    fs.closeSync(fd);
  }
}
