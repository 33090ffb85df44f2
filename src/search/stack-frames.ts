/** One frame of a pasted stack trace: where it is, and the function when the format names one. Pure parsing. */
export interface StackFrame {
  /** As written in the trace: absolute, relative, or for Java the package path and file (`com/x/Y.java`). */
  path: string;
  line: number | null;
  fn: string | null;
  /** Not in a dependency, the standard library or the runtime: a frame of the user's own code. */
  user: boolean;
  /** The source line a Python trace prints under the frame, when it does. */
  code?: string;
}

/** Per line, the trace formats of the common runtimes; the first that matches a line reads it. */
const FRAME_FORMATS: { name: string; pattern: RegExp; read(m: RegExpExecArray): Omit<StackFrame, 'user'> }[] = [
  // Python: `  File "app/models.py", line 12, in save`
  { name: 'python', pattern: /^\s*File "([^"]+)", line (\d+)(?:, in ([\w.<>]+))?/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: m[3] ?? null }) },
  // Java, Kotlin, Scala: `at com.acme.shop.Cart.add(Cart.java:42)`
  { name: 'java', pattern: /^\s*at (?:[\w.$-]+\/)?((?:[\w$]+\.)+)([\w$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)/, read: (m) => ({ path: javaPath(m[1]!, m[3]!), line: Number(m[4]), fn: m[2]! }) },
  // JavaScript, TypeScript: `at Router.handle (src/router.js:12:5)`, `at async save (file:///app/x.mjs:3:9)`, `at src/x.js:1:2`
  { name: 'js', pattern: /^\s*at (?:(?:async |new )?([^\s(]+(?: \[as \w+\])?) \()?(.+?):(\d+)(?::\d+)?\)?\s*$/, read: (m) => ({ path: m[2]!, line: Number(m[3]), fn: jsFunction(m[1]) }) },
  // Ruby: `app/models/user.rb:12:in 'save'` or with a backtick
  { name: 'ruby', pattern: /^\s*(?:from\s+)?([^\s:]+\.rb):(\d+):in [`']([^']+)'/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: m[3]!.replace(/^.*[#.]/, '').replace(/^block in /, '') }) },
  // Go: `\t/home/u/proj/server/handler.go:88 +0x1d2`, the function on the line before
  { name: 'go', pattern: /^\s*(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: null }) },
  // Rust backtraces: `             at ./src/parser.rs:40:9`, `at /rustc/…/library/core/src/panicking.rs:72:14`
  { name: 'rust', pattern: /^\s*at (\S+\.rs):(\d+)(?::\d+)?\s*$/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: null }) },
];

/** Paths of dependencies, standard libraries and runtimes: their frames say where the failure passed, not where it is. */
const NOT_USER_CODE = [
  /(^|[/\\])(node_modules|site-packages|dist-packages|vendor|third_party|\.cargo|\.rustup|gems|\.m2|\.gradle|pkg[/\\]mod|__pypackages__|\.venv|venv|bower_components)([/\\]|$)/,
  /^(node:|internal[/\\]|<|\[|\/rustc\/|webpack:|native|bootstrap_node|events\.js|timers\.js)/,
  /(^|[/\\])(lib[/\\]python\d|lib64[/\\]python\d|usr[/\\]lib|usr[/\\]local[/\\]lib|usr[/\\]local[/\\]go|go[/\\]src[/\\](runtime|net|reflect|testing|sync|internal)|lib[/\\]ruby|rubygems|jdk|jre)([/\\]|$)/,
  /^(java|javax|jdk|sun|kotlin|kotlinx|scala|org[/\\]junit|org[/\\]springframework|com[/\\]sun)[/\\]/,
];

/**
 * Every frame of every trace in the text, in the order written; whether the innermost call comes last; and the
 * indexes of the lines that belong to frames (a Python frame's source line with it), which are not prose.
 */
export function stackFrames(text: string): { frames: StackFrame[]; innermostLast: boolean; frameLines: Set<number> } {
  const frames: StackFrame[] = [];
  const frameLines = new Set<number>();
  let pythonFrames = 0;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (frameLines.has(i)) return;
    for (const format of FRAME_FORMATS) {
      const m = format.pattern.exec(line);
      if (!m) continue;
      const read = format.read(m);
      const path = read.path.replace(/^file:\/\//, '');
      const frame: StackFrame = { ...read, path, user: isUserPath(path) };
      frameLines.add(i);
      if (format.name === 'go') {
        frame.fn = goFunction(lines[i - 1] ?? '');
        if (frame.fn) frameLines.add(i - 1);
      }
      if (format.name === 'python') {
        pythonFrames++;
        const next = lines[i + 1];
        if (next !== undefined && next.trim() && indent(next) > indent(line) && !format.pattern.test(next)) {
          frame.code = next.trim();
          frameLines.add(i + 1);
        }
      }
      frames.push(frame);
      break;
    }
  });
  // Python prints the innermost call last ("most recent call last"); the other runtimes print it first.
  return { frames, innermostLast: pythonFrames > frames.length / 2 || /most recent call last/i.test(text), frameLines };
}

function indent(line: string): number {
  return line.length - line.trimStart().length;
}

export function isUserPath(path: string): boolean {
  return !NOT_USER_CODE.some((p) => p.test(path));
}

/** `com.acme.shop.` and `Cart.java` → `com/acme/shop/Cart.java`, dropping the class after the package. */
function javaPath(qualifier: string, file: string): string {
  const parts = qualifier.replace(/\.$/, '').split('.');
  const pkg = parts.filter((p) => /^[a-z_][\w]*$/.test(p));
  return [...pkg, file].join('/');
}

/** `Router.handle` → `handle`; `Object.<anonymous>` and `Module._compile [as .js]` name nothing useful. */
function jsFunction(raw: string | undefined): string | null {
  if (!raw) return null;
  const name = raw.replace(/ \[as \w+\]$/, '').split('.').pop()!;
  return /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'Object' ? name : null;
}

/** `main.(*Server).handle(0xc000…)` → `handle`; `github.com/x/y/pkg.Parse(...)` → `Parse`. */
function goFunction(line: string): string | null {
  const m = /([A-Za-z_]\w*)\((?:[^()]*)\)\s*$/.exec(line.trim());
  return m ? m[1]! : null;
}
