/**
 * What a page load costs on the wire, as Chromium's network stack counts it (DevTools protocol):
 * `Network.loadingFinished.encodedDataLength` is the bytes received for a request, headers
 * included, after content coding (br/gzip) and before decompression.
 */
import type { CDPSession, Page } from 'playwright-core';

export interface Transfer {
  url: string;
  /** DevTools resource type: Document, Stylesheet, Script, Image, Other, … */
  type: string;
  mimeType: string;
  contentEncoding: string | undefined;
  bytes: number;
}

export interface NetworkLog {
  /** Every request the page sent, finished or not, in order. */
  requested: string[];
  /** Resolves once no request is in flight (call after the load event). */
  settled(): Promise<Transfer[]>;
}

export async function recordNetwork(page: Page): Promise<NetworkLog> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const requested: string[] = [];
  const pending = new Map<string, Partial<Transfer>>();
  const done: Transfer[] = [];
  let wake: (() => void) | undefined;
  const finish = (id: string, bytes: number) => {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    done.push({ url: entry.url!, type: entry.type ?? 'Other', mimeType: entry.mimeType ?? '', contentEncoding: entry.contentEncoding, bytes });
    if (pending.size === 0) wake?.();
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    requested.push(e.request.url);
    pending.set(e.requestId, { url: e.request.url, type: e.type });
  });
  cdp.on('Network.responseReceived', (e) => {
    const entry = pending.get(e.requestId);
    if (!entry) return;
    entry.type = e.type;
    entry.mimeType = e.response.mimeType;
    const coding = Object.entries(e.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding');
    entry.contentEncoding = coding?.[1];
  });
  cdp.on('Network.loadingFinished', (e) => finish(e.requestId, e.encodedDataLength));
  cdp.on('Network.loadingFailed', (e) => finish(e.requestId, 0));
  return {
    requested,
    async settled() {
      if (pending.size > 0) await new Promise<void>((resolve) => (wake = resolve));
      return done;
    },
  };
}

/** Images do not count against the page-weight budget ("before images"). */
export function isImage(transfer: Transfer): boolean {
  return transfer.type === 'Image' || transfer.mimeType.startsWith('image/');
}
