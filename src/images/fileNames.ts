// File names for generated images: a short slug of the prompt, the local time, the index in the
// request, and the extension of the real image type, e.g. `sunset-over-mountains-20261122-101530-1.png`.
// Names never contain a path separator, so a name cannot move a file out of its folder.
// Pure.

const MAX_SLUG = 40;

/** "A Sunset over the Mountains!" -> "a-sunset-over-the-mountains"; ASCII only, at most 40 chars. */
export function slugify(prompt: string, maxLength = MAX_SLUG): string {
  const ascii = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents split off by NFKD
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (ascii.length <= maxLength) return ascii || 'image';
  // Cut at a word boundary when one is reasonably close, so names do not end mid-word.
  const cut = ascii.slice(0, maxLength + 1);
  const lastDash = cut.lastIndexOf('-');
  const slug = (lastDash >= maxLength / 2 ? cut.slice(0, lastDash) : ascii.slice(0, maxLength)).replace(/-+$/, '');
  return slug || 'image';
}

const two = (n: number) => String(n).padStart(2, '0');

/** Local time as YYYYMMDD-HHMMSS: sorts by time and reads like the clock the user sees. */
export function timestamp(date: Date): string {
  return (
    `${date.getFullYear()}${two(date.getMonth() + 1)}${two(date.getDate())}-` + `${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`
  );
}

/** Base name without extension for image `index` (1-based) of a request. */
export function imageBaseName(prompt: string, date: Date, index: number): string {
  return `${slugify(prompt)}-${timestamp(date)}-${index}`;
}

/** The names to try, in order: `base.ext`, `base-2.ext`, `base-3.ext`, ... */
export function* candidateNames(base: string, ext: string, limit = 1000): Generator<string> {
  yield `${base}.${ext}`;
  for (let i = 2; i <= limit; i++) yield `${base}-${i}.${ext}`;
}

/**
 * The first candidate name that is neither taken on disk (`exists`) nor already chosen in this
 * run (`reserved`), so a file is never overwritten. The chosen name is added to `reserved`.
 */
export async function pickFreeName(base: string, ext: string, exists: (name: string) => Promise<boolean>, reserved: Set<string> = new Set()): Promise<string> {
  for (const name of candidateNames(base, ext)) {
    if (reserved.has(name.toLowerCase())) continue;
    if (await exists(name)) continue;
    // Lower-cased: on case-insensitive disks A.png and a.png are the same file.
    reserved.add(name.toLowerCase());
    return name;
  }
  throw new Error(`No free file name for ${base}.${ext}: too many files with that name.`);
}
