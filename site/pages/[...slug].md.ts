/** The Markdown twin of every page, at twinPath(page) (api/contract/paths.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { textFile } from '../../api/docs/respond.ts';
import { getAllPages, type Page } from '../lib/pages.ts';
import { renderTwin } from '../lib/twin.ts';

export const getStaticPaths = (async () =>
  (await getAllPages()).map((page) => ({ params: { slug: page.twinSlug }, props: { page } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => textFile(renderTwin((props as { page: Page }).page), 'text/markdown; charset=utf-8');
