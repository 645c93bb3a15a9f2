/** /llms-full.txt (English) and /de/llms-full.txt: site/lib/llms-full.ts. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { DEFAULT_LANG, LANGS, type Lang } from '../../../api/contract/enums.ts';
import { textFile } from '../../../api/docs/respond.ts';
import { buildLlmsFull } from '../../lib/llms-full.ts';
import { getAllPages } from '../../lib/pages.ts';
import { BASE_URL } from '../../lib/site-config.ts';

export const getStaticPaths = (() =>
  LANGS.map((lang) => ({ params: { prefix: lang === DEFAULT_LANG ? undefined : lang }, props: { lang } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) =>
  textFile(buildLlmsFull(await getAllPages(), (props as { lang: Lang }).lang, BASE_URL), 'text/plain; charset=utf-8');
