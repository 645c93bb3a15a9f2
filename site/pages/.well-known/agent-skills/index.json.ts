// Agent Skills discovery index (v0.2.0): the skill's name, description, URL and sha256 digest.
import type { APIRoute } from 'astro';
import { loadConfig } from '../../../../api/config.ts';
import { agentSkillsIndex } from '../../../../api/docs/agents.ts';
import { jsonFile } from '../../../../api/docs/respond.ts';
import { joinWaitlistSkill } from '../../../lib/skill.ts';

export const GET: APIRoute = () => jsonFile(agentSkillsIndex(loadConfig().BASE_URL, joinWaitlistSkill()));
