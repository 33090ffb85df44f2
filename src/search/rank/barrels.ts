/**
 * Re-export barrels (`export * from './x'`, `pub use x::Y;`, `from .x import Y`) mention every public name of
 * a package without defining any: they match name and word queries well and answer none of them.
 */
const REEXPORT_LINE = new RegExp(
  [
    String.raw`^export\s+(?:type\s+)?(?:\*|\{[^}]*\}?)(?:\s+as\s+[\w$]+)?\s*(?:from\s+['"][^'"]+['"])?;?$`,
    String.raw`^export\s+(?:type\s+)?\*\s+as\s+[\w$]+\s+from\s+['"][^'"]+['"];?$`,
    String.raw`^export\s+(?:default\s+)?[\w$]+;?$`,
    String.raw`^(?:import|export)\s+.*\s+from\s+['"][^'"]+['"];?$`,
    String.raw`^import\s+['"][^'"]+['"];?$`,
    String.raw`^(?:pub(?:\([^)]*\))?\s+)?(?:use|mod|extern\s+crate)\s+[^;]*;?$`,
    String.raw`^from\s+\S+\s+import\s+.*$`,
    String.raw`^import\s+[\w.]+(?:\s+as\s+\w+)?$`,
    String.raw`^__all__\s*[=+]`,
    String.raw`^(?:module\.)?exports(?:\.[\w$]+)?\s*=\s*require\(`,
    String.raw`^[\w$,\s]*\}?\s*(?:from\s+['"][^'"]+['"])?;?$`,
    String.raw`^['"][\w$]+['"],?$`,
    String.raw`^[\w$]+(?:\s+as\s+[\w$]+)?,?$`,
    String.raw`^[)\]}]+;?$`,
    String.raw`^#\[.*\]$`,
  ].join('|'),
);

/**
 * A chunk that only imports and re-exports: nearly all its code lines do, and it carries no documentation of its
 * own (a Rust `mod.rs` or Python `__init__.py` that documents its module is an answer, not a barrel).
 */
export function isBarrel(text: string): boolean {
  let code = 0;
  let reexports = 0;
  let comments = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('//') || (line.startsWith('#') && !line.startsWith('#[')) || line.startsWith('/*') || line.startsWith('*') || line.startsWith('"""')) {
      comments++;
      continue;
    }
    code++;
    if (REEXPORT_LINE.test(line)) reexports++;
  }
  return code > 0 && reexports / code >= 0.8 && comments < 3;
}
