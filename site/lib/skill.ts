/**
 * The one Agent Skill, written by editors in content/skills/ (outside the pages collection), with
 * its placeholders filled like a page's. The index's digest is computed from these same bytes.
 */
import { readFile } from 'node:fs/promises';
import type { Skill } from '../../api/docs/agents.ts';
import { fillText } from './placeholders.ts';

const SOURCE = 'content/skills/join-waitlist/SKILL.md';

export async function joinWaitlistSkill(): Promise<Skill> {
  const text = fillText(await readFile(new URL(`../../${SOURCE}`, import.meta.url), 'utf8'), 'en', SOURCE);
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1]?.trim();
  const name = field('name');
  const description = field('description');
  if (!name || !description) throw new Error(`${SOURCE}: the frontmatter needs name and description`);
  return { name, description, bytes: new TextEncoder().encode(text) };
}
