/**
 * What each file in dist/ is served as. Extensions cover what the build writes; the extensionless
 * discovery files under /.well-known/ are named one by one, and one document lives under another
 * name on disk (ALIASES).
 */
import { DISCOVERY_PATHS, authorizationServerMetadataPath } from '../contract/index.ts';

/** RFC 9727 §4.2: the catalog is Linkset JSON with the API-catalog profile. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

export const HTML_TYPE = 'text/html; charset=utf-8';
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const JSON_TYPE = 'application/json';
/** For a file whose kind the front does not know: never guessed from its content (nosniff). */
export const FALLBACK_TYPE = 'application/octet-stream';

const BY_EXTENSION: Record<string, string> = {
  html: HTML_TYPE,
  md: MARKDOWN_TYPE,
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  json: JSON_TYPE,
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  ico: 'image/x-icon',
  webmanifest: 'application/manifest+json',
  woff2: 'font/woff2',
  woff: 'font/woff',
};

/** Extensionless files under /.well-known/, by URL path prefix (RFC 8414 and RFC 9728 add path suffixes). */
const WELL_KNOWN: readonly (readonly [prefix: string, type: string])[] = [
  [DISCOVERY_PATHS.apiCatalog, API_CATALOG_TYPE],
  [DISCOVERY_PATHS.securityTxt, 'text/plain; charset=utf-8'],
  ['/.well-known/oauth-authorization-server', 'application/json'],
  ['/.well-known/oauth-protected-resource', 'application/json'],
];

/**
 * URL path -> path of the file in dist/ (both with a leading slash) where they differ.
 * A POSIX directory cannot hold a file `oauth-authorization-server` next to a directory of the
 * same name (which holds `sandbox`, RFC 8414 §3 path insertion), so the build writes the
 * production metadata with a `.json` suffix. Its on-disk name is not a public address.
 */
export const ALIASES: Readonly<Record<string, string>> = {
  [authorizationServerMetadataPath('production')]: `${authorizationServerMetadataPath('production')}.json`,
};

/** The content type of a URL path, or undefined when the front does not know the file kind. */
export function contentTypeOf(urlPath: string): string | undefined {
  const name = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (urlPath.startsWith('/.well-known/') && dot <= 0) {
    const match = WELL_KNOWN.find(([prefix]) => urlPath === prefix || urlPath.startsWith(`${prefix}/`));
    return match?.[1];
  }
  if (dot <= 0) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/** Worth compressing: text formats. Images and fonts listed above are compressed already (svg is text). */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|xml|linkset\+json|manifest\+json)|image\/svg\+xml)/.test(contentType);
}
