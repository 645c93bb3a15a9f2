import { describe, expect, test } from 'vitest';
import { negotiateCoding, negotiatePage, type Coding, type Variant } from '../../api/front/negotiate.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('negotiate: Accept -> page variant', () => {
  const cases: [accept: string | undefined, expected: Variant, why: string][] = [
    [undefined, 'html', 'no Accept means anything, and HTML is the default'],
    ['', 'html', 'an empty Accept is treated like a missing one'],
    ['*/*', 'html', 'a full wildcard gets the default'],
    [BROWSER, 'html', 'browsers name text/html'],
    ['text/markdown', 'markdown', 'only Markdown acceptable'],
    ['text/markdown, text/html;q=0.9', 'markdown', 'Markdown has the higher q'],
    ['text/markdown, text/html, */*', 'markdown', 'equal q: the type listed first wins'],
    ['text/html, text/markdown', 'html', 'equal q: the type listed first wins'],
    ['text/html, text/markdown;q=0.5', 'html', 'HTML has the higher q'],
    ['text/markdown;q=0, text/html', 'html', 'q=0 excludes Markdown'],
    ['text/markdown;q=0', 'html', 'q=0 excludes Markdown, and the default is sent rather than 406'],
    ['text/markdown;q=0, */*', 'html', 'a wildcard does not revive an excluded type'],
    ['text/*', 'html', 'a type wildcard matches both equally: default'],
    ['text/*, text/markdown', 'markdown', 'the explicit range is more specific than the wildcard'],
    ['*/*;q=0.8, text/markdown', 'markdown', 'Markdown named at q=1 over a wildcard at 0.8'],
    ['text/markdown;q=0.5, */*', 'html', 'the wildcard gives HTML q=1 > 0.5'],
    ['text/plain', 'html', 'neither type acceptable: default'],
    ['application/json', 'html', 'neither type acceptable: default'],
    ['TEXT/MARKDOWN', 'markdown', 'media types are case-insensitive (RFC 9110 §8.3.1)'],
    ['text/markdown;charset=utf-8', 'markdown', 'the charset the twin is sent in matches'],
    ['text/markdown;charset=iso-8859-1, text/html;q=0.5', 'html', 'a charset the twin is not in does not match'],
    ['text/html;q=0, */*', 'markdown', 'HTML excluded, Markdown is what is left'],
    ['text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1', 'markdown', 'q-values decide across the list'],
    ['garbage;;;,', 'html', 'an unparsable header gets the default'],
  ];
  test.each(cases)('negotiate: Accept %j -> %s (%s)', (accept, expected) => {
    expect(negotiatePage(accept)).toBe(expected);
  });

  test('negotiate: the same Accept gives the same answer on repeat (cached)', () => {
    expect(negotiatePage('text/markdown')).toBe('markdown');
    expect(negotiatePage('text/markdown')).toBe('markdown');
    expect(negotiatePage(BROWSER)).toBe('html');
  });
});

describe('negotiate: Accept-Encoding -> content-coding', () => {
  const all: Coding[] = ['identity', 'br', 'gzip'];
  const cases: [acceptEncoding: string | undefined, available: Coding[], expected: Coding][] = [
    [undefined, all, 'identity'],
    ['', all, 'identity'],
    ['gzip, deflate, br', all, 'br'],
    ['gzip, deflate, br, zstd', all, 'br'],
    ['gzip', all, 'gzip'],
    ['br;q=0.5, gzip', all, 'gzip'],
    ['*', all, 'br'],
    ['br', ['identity'], 'identity'],
    ['br', ['identity', 'gzip'], 'identity'],
    ['identity;q=0, gzip', ['identity', 'gzip'], 'gzip'],
    ['deflate', all, 'identity'],
  ];
  test.each(cases)('negotiate: Accept-Encoding %j with %j -> %s', (header, available, expected) => {
    expect(negotiateCoding(header, available)).toBe(expected);
  });
});
