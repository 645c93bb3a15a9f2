/**
 * A parser for /llms.txt that enforces the llmstxt.org rules (and those of its reference parser):
 * one H1 first, then a blockquote, then free text without headings, then H2 sections in which
 * every non-blank line is `- [name](url)` with an optional `: note`.
 */
export interface LlmsTxt {
  title: string;
  summary: string;
  details: string;
  sections: { name: string; links: { name: string; url: string; note?: string }[] }[];
}

const LINK = /^- \[([^\]]+)\]\(([^)]+)\)(?:: (.*))?$/;

export function parseLlmsTxt(text: string): LlmsTxt {
  const lines = text.split('\n');
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && lines[i].trim() === '') i++;
  };
  skipBlank();
  const h1 = /^# (\S.*)$/.exec(lines[i] ?? '');
  if (!h1) throw new Error(`line ${i + 1}: expected the H1 first`);
  i++;
  skipBlank();
  const quote: string[] = [];
  while (i < lines.length && lines[i].startsWith('>')) quote.push(lines[i++].replace(/^>\s?/, ''));
  if (quote.length === 0) throw new Error(`line ${i + 1}: expected a "> summary" blockquote after the H1`);
  const details: string[] = [];
  while (i < lines.length && !lines[i].startsWith('## ')) {
    if (/^#/.test(lines[i])) throw new Error(`line ${i + 1}: no headings before the first H2 section`);
    details.push(lines[i++]);
  }
  const sections: LlmsTxt['sections'] = [];
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    const h2 = /^## (\S.*)$/.exec(line);
    if (h2) {
      sections.push({ name: h2[1], links: [] });
      continue;
    }
    const link = LINK.exec(line);
    if (!link) throw new Error(`line ${i + 1}: inside an H2 section every line must be "- [name](url): note", got: ${line}`);
    sections.at(-1)!.links.push({ name: link[1], url: link[2], note: link[3] });
  }
  return { title: h1[1], summary: quote.join(' '), details: details.join('\n').trim(), sections };
}
