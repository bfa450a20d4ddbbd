import { stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';

/** A file found under a served directory: its path and modification time (for ETag / Last-Modified). */
export interface StaticFile {
  readonly path: string;
  readonly mtimeMs: number;
}

/**
 * A regular file strictly inside `root` for a URL path segment, or null: no traversal, no dot-files, no NUL bytes,
 * no directories. The one check the SDK files, the demo site and the console share.
 */
export async function findStaticFile(root: string, relative: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split(/[\\/]/).some((part) => part.startsWith('.'))) return null;
  const path = normalize(join(root, decoded));
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    const info = await stat(path);
    return info.isFile() ? { path, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}
