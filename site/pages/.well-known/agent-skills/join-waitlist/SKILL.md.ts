// The Agent Skill itself, byte for byte what the index's digest was computed from.
import type { APIRoute } from 'astro';
import { textFile } from '../../../../../api/docs/respond.ts';
import { joinWaitlistSkill } from '../../../../lib/skill.ts';

export const GET: APIRoute = () => textFile(joinWaitlistSkill().bytes, 'text/markdown; charset=utf-8');
