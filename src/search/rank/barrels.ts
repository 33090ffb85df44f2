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

/** Share of a chunk's code lines (comments and blanks aside) that only import or re-export. */
export function reexportShare(text: string): number {
  let code = 0;
  let reexports = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('//') || line.startsWith('#') && !line.startsWith('#[') || line.startsWith('/*') || line.startsWith('*') || line.startsWith('"""')) continue;
    code++;
    if (REEXPORT_LINE.test(line)) reexports++;
  }
  return code === 0 ? 0 : reexports / code;
}
