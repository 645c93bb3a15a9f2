/**
 * A small scanner for the site's own HTML (Astro's output: quoted attributes, no comments in
 * pages). Enough to find tags, attributes and the text of simple elements in tests.
 */
export interface Tag {
  name: string;
  attrs: Record<string, string>;
  /** Offset of the tag in the document. */
  at: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

export function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, e: string) => ENTITIES[e]);
}

export function tags(html: string, name?: string): Tag[] {
  const out: Tag[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g)) {
    const tagName = match[1].toLowerCase();
    if (name && tagName !== name) continue;
    const attrs: Record<string, string> = {};
    for (const a of match[2].matchAll(/([^\s=>/]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      attrs[a[1].toLowerCase()] = decode(a[2] ?? a[3] ?? a[4] ?? '');
    }
    out.push({ name: tagName, attrs, at: match.index });
  }
  return out;
}

/** Text content of the first `<name …>…</name>` (tags stripped, entities decoded). */
export function text(html: string, name: string): string | undefined {
  const match = new RegExp(`<${name}\\b[^>]*>([\\s\\S]*?)</${name}>`, 'i').exec(html);
  return match ? decode(match[1].replace(/<[^>]+>/g, '')).trim() : undefined;
}

/** The `<form>…</form>` blocks of a page, in document order. */
export function forms(html: string): string[] {
  return [...html.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]);
}

/** `<link rel=… >` tags with the given rel. */
export function links(html: string, rel: string): Tag[] {
  return tags(html, 'link').filter((t) => t.attrs.rel?.split(/\s+/).includes(rel));
}
