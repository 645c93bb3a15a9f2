/**
 * The one Agent Skill, written by editors in content/skills/ (outside the pages collection), with
 * its placeholders filled like a page's. The index's digest is computed from these same bytes.
 */
import { fillText } from './placeholders.ts';
import source from '../../content/skills/join-waitlist/SKILL.md?raw';

const SOURCE = 'content/skills/join-waitlist/SKILL.md';

export function joinWaitlistSkill() {
  const text = fillText(source, 'en', SOURCE);
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1]?.trim();
  const name = field('name');
  const description = field('description');
  if (!name || !description) throw new Error(`${SOURCE}: the frontmatter needs name and description`);
  return { name, description, bytes: new TextEncoder().encode(text) };
}
