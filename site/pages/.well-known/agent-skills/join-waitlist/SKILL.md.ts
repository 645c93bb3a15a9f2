// The Agent Skill itself, byte for byte what the index's digest was computed from.
import type { APIRoute } from 'astro';
import { joinWaitlistSkill } from '../../../../lib/skill.ts';

export const GET: APIRoute = () =>
  new Response(joinWaitlistSkill().bytes, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
